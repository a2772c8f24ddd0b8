import { useEffect, useState } from 'react';
import { Button, Group, Loader, Modal, Radio, Stack, Text } from '@mantine/core';
import { MAX_TRANSIT_BUSINESS_DAYS, type ShipmentView, type ShippingRate } from '@platform/domain';
import { downloadCarrierLabel, purchaseShipmentLabel, quoteShipmentRates, type ShipmentRatesAnswer } from '../../api/shipping';
import { useRefreshClinic } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { formatCents } from '../../format';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';

const days = (n: number | null) => (n === null ? 'no delivery date promised' : `${n} business day${n === 1 ? '' : 's'}`);

/**
 * A shipment's carrier label: "Buy shipping label" (rates from the shipping service, one chosen,
 * bought) while the shipment may get one, then "Download shipping label" (the PDF to print and
 * stick on the box).
 */
export function CarrierLabelTools({ accountId, shipment }: { accountId: number; shipment: ShipmentView }) {
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const name = shipment.externalOrderId ?? `#${shipment.id}`;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadCarrierLabel(accountId, shipment);
    } catch (error) {
      reportError(error instanceof ApiError ? error : new Error('The download failed'), 'Error downloading PDF');
    } finally {
      setDownloading(false);
    }
  };

  if (shipment.carrierLabel) {
    return (
      <Button size="xs" variant="light" loading={downloading} onClick={() => void download()} aria-label={`Download shipping label of shipment ${name}`}>
        Download shipping label
      </Button>
    );
  }
  if (!shipment.labelPurchasable) return null;
  return (
    <>
      <Button size="xs" onClick={() => setOpen(true)} aria-label={`Buy shipping label for shipment ${name}`}>
        Buy shipping label
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Shipping label for shipment ${name}`} size="lg">
        {open && <RatesForm accountId={accountId} shipment={shipment} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function RatesForm({ accountId, shipment, onDone }: { accountId: number; shipment: ShipmentView; onDone: () => void }) {
  const [quote, setQuote] = useState<ShipmentRatesAnswer | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [buying, setBuying] = useState(false);
  const refresh = useRefreshClinic(accountId);

  useEffect(() => {
    let live = true;
    quoteShipmentRates(accountId, shipment.id).then(
      (answer) => {
        if (!live) return;
        setQuote(answer);
        setChosen(answer.rates.find((r) => r.selected)?.rateId ?? null);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [accountId, shipment.id]);

  const buy = async () => {
    if (!chosen) return;
    setBuying(true);
    setError(null);
    try {
      const bought = await purchaseShipmentLabel(accountId, shipment.id, chosen);
      showSuccessToast(`Label bought: ${bought.tracking.carrier ?? ''} ${bought.service ?? ''}, tracking ${bought.tracking.trackingNumber}`.replace(/\s+/g, ' '));
      await refresh();
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBuying(false);
    }
  };

  if (!quote) {
    return error ? (
      <FormError title="No rates" error={error} />
    ) : (
      <Group gap="xs" role="status" aria-label="Asking the shipping service for rates">
        <Loader size="sm" />
        <Text fz="sm">Asking the shipping service for rates…</Text>
      </Group>
    );
  }
  const price = quote.rates.find((r) => r.rateId === chosen)?.amountCents ?? null;
  return (
    <Stack gap="sm">
      <Text fz="sm">
        From: {quote.shipFrom}
        <br />
        To: {quote.shipTo}
      </Text>
      <Radio.Group label="Service" value={chosen} onChange={setChosen}>
        <Stack gap="xs" mt="xs">
          {quote.rates.map((r) => (
            <RateChoice key={r.rateId} rate={r} />
          ))}
        </Stack>
      </Radio.Group>
      <FormError title="The label was not bought" error={error ?? undefined} onClose={() => setError(null)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => void buy()} loading={buying} disabled={!chosen}>
          {price === null ? 'Buy label' : `Buy label (${formatCents(price)})`}
        </Button>
      </Group>
    </Stack>
  );
}

function RateChoice({ rate: r }: { rate: ShippingRate }) {
  return (
    <Radio
      value={r.rateId}
      disabled={!r.allowed}
      label={`${r.carrier} ${r.label}: ${formatCents(r.amountCents)}, ${days(r.businessDays)}`}
      description={r.allowed ? undefined : `Too slow: specimens must reach the lab within ${MAX_TRANSIT_BUSINESS_DAYS} business days`}
    />
  );
}
