/**
 * The fields every HL7 v2 destination has (an account's EHR, public health): where its MLLP
 * listener is, and the receiving application and facility every message names (MSH-5, MSH-6).
 */
import { NumberInput, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { HL7_NAMESPACE_MAX_LENGTH } from '@platform/domain';

/** The part of a Mantine form these fields use (any form whose values hold them). */
interface Hl7Form {
  key: (path: string) => string;
  getInputProps: (path: string) => GetInputPropsReturnType;
}

/** Host and port of the destination's MLLP listener; `whose` names it ("The EHR's"). */
export function MllpListenerFields({ form, whose }: { form: Hl7Form; whose: string }) {
  return (
    <>
      <TextInput label="Host" description={`${whose} MLLP listener (host name or IP address)`} withAsterisk key={form.key('host')} {...form.getInputProps('host')} />
      <NumberInput label="Port" withAsterisk min={1} max={65535} allowDecimal={false} key={form.key('port')} {...form.getInputProps('port')} />
    </>
  );
}

/** MSH-5 and MSH-6; `each` says of what ("every message sent"). */
export function ReceiverFields({ form, each }: { form: Hl7Form; each: string }) {
  return (
    <>
      <TextInput
        label="Receiving application"
        description={`MSH-5 of ${each}`}
        withAsterisk
        maxLength={HL7_NAMESPACE_MAX_LENGTH}
        key={form.key('receivingApplication')}
        {...form.getInputProps('receivingApplication')}
      />
      <TextInput
        label="Receiving facility"
        description={`MSH-6 of ${each}`}
        withAsterisk
        maxLength={HL7_NAMESPACE_MAX_LENGTH}
        key={form.key('receivingFacility')}
        {...form.getInputProps('receivingFacility')}
      />
    </>
  );
}
