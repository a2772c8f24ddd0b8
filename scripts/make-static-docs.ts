/**
 * Writes the six static documents of SPEC §2 into web/public/docs/ (the SPA serves them as
 * /docs/<file>). The list of documents, their files and titles is web/src/documents.ts; the
 * words are here. Output is byte-for-byte repeatable (fixed dates), so the PDFs can be committed.
 *
 *   npx tsx scripts/make-static-docs.ts          # VITE_BRAND changes the brand, as for the SPA
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import {
  catalogueEntry,
  KRAS_GENOTYPES,
  MIRAKIND_DONATION_SHARE,
  REJECTION_REASONS,
  researchTests,
  RISK_LEVELS,
  TestName,
  TREATMENT_OPTIONS,
  TWO_LEVEL_RISKS,
} from '@platform/domain';
import { platformTitleOf, resolveBrand } from '../web/src/brand';
import { STATIC_DOCUMENTS, type StaticDocument } from '../web/src/documents';

const OUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/public/docs');
const BRAND = resolveBrand({ VITE_BRAND: process.env.VITE_BRAND });
const PLATFORM = platformTitleOf(BRAND);
/** The documents' edition: printed in each footer and used as the PDF dates (repeatable output). */
const EDITION = { label: 'November 2026', date: new Date('2026-11-01T00:00:00Z') };

type Block =
  | { heading: string }
  | { text: string }
  | { bullets: readonly string[] }
  | { steps: readonly string[] }
  | { note: string }
  | { signatures: readonly string[] };

interface DocumentText {
  subtitle: string;
  blocks: Block[];
  /** When set, the document must fit on this many pages (the patient sheet is one page). */
  maxPages?: number;
}

const dollars = (cents: number | null) => (cents === null ? 'n/a' : `$${(cents / 100).toFixed(0)}`);
const ultra = catalogueEntry(TestName.ProstoxUltra);
const [ultraOption, cfrtOption] = TREATMENT_OPTIONS;

const TEXTS: Record<StaticDocument['id'], DocumentText> = {
  'swabbing-instructions': {
    subtitle: 'How to collect a cheek (buccal) swab sample and send it to the lab',
    blocks: [
      { text: 'The test uses cells from the inside of your cheeks. Collecting them takes about five minutes and does not hurt. Please read all the steps before you start.' },
      { heading: 'Before you start' },
      {
        bullets: [
          'Do not eat, drink (except water), smoke, chew gum or brush your teeth for 30 minutes before collecting.',
          'Wash and dry your hands.',
          'Check the kit: two swabs, one labelled collection tube, a specimen bag with an absorbent pad, the test requisition form and a prepaid return mailer.',
          'Check that the 14-digit barcode on the tube matches the barcode on the requisition form. If it does not, stop and contact your clinic.',
        ],
      },
      { heading: 'Collecting the sample' },
      {
        steps: [
          'Write your full name and date of birth on the tube label.',
          'Take out the first swab by its handle. Do not touch the soft tip or let it touch anything else.',
          'Rub the tip firmly against the inside of one cheek for 30 seconds, turning it as you go.',
          'Put the swab in the tube, tip first. Break or cut the handle at the line so the cap closes.',
          'Repeat with the second swab on the other cheek and put it in the same tube.',
          'Close the cap tightly and wipe the outside of the tube.',
        ],
      },
      { heading: 'Sending it back' },
      {
        steps: [
          'Put the tube in the specimen bag with the absorbent pad and seal the bag.',
          'Put the completed requisition form in the outer pocket of the bag, not inside with the tube.',
          'Put the bag in the prepaid mailer and seal it. Send it the same day, or within 24 hours. Keep it at room temperature; do not refrigerate or freeze it.',
        ],
      },
      { note: 'The lab can test a sample only if the tube is labelled, the barcode matches the form and the sample arrives within 14 days of collection. Otherwise a new kit is sent.' },
      { heading: 'Questions' },
      { text: 'Ask the clinic that ordered your test, or contact the lab through the support address on your kit.' },
    ],
  },

  'research-protocol': {
    subtitle: 'Germline predictors of radiation toxicity: summary of the study protocol for study sites',
    blocks: [
      { heading: 'Purpose' },
      { text: 'Some people have more side effects from radiation therapy than others given the same treatment. This study collects DNA from cheek swabs and treatment outcomes to develop and validate tests that estimate, before treatment, a person\'s risk of late side effects.' },
      { heading: 'Research tests in this study' },
      { bullets: researchTests().map((name) => `${name}: risk of ${catalogueEntry(name).riskOf ?? 'radiation toxicity'}`) },
      { heading: 'Who can take part' },
      {
        bullets: [
          'Adults (18 years or older) who are planned for, receiving or have completed radiation therapy for one of the cancers above.',
          'Able to give informed consent, personally or through a legally authorised representative where the site allows it.',
          'Not eligible: a previous bone marrow transplant (the swab would not reflect the participant\'s own DNA).',
        ],
      },
      { heading: 'What happens' },
      {
        steps: [
          'The site explains the study and obtains written consent using the current research consent form.',
          'The participant gives one cheek swab sample, ordered through the Research Portal.',
          'The site enters treatment details and answers the study questions for the participant in the Research Portal.',
          'The site records side effects at follow-up visits that are part of usual care.',
        ],
      },
      { heading: 'Results' },
      { text: 'Research test results are for research only. They are not returned to participants or their physicians and must not be used to make treatment decisions.' },
      { heading: 'Privacy and data' },
      { text: 'Participants are identified in the lab by a study code and sample barcode. Access to the Research Portal is limited to named staff at each site and every view of participant data is recorded. Samples and data are kept for the length of the study and may be used for related radiation-toxicity research, as the consent form states.' },
      { heading: 'Withdrawal' },
      { text: 'A participant may withdraw at any time by telling the study site. No further data are collected and, on request, the remaining sample is destroyed. Results already included in analyses cannot be removed.' },
    ],
  },

  'research-consent': {
    subtitle: 'Consent to take part in a research study on genetic risk of radiation side effects',
    blocks: [
      { heading: 'Key information' },
      {
        bullets: [
          'Taking part is voluntary. Saying no will not change your care.',
          'You will give one cheek swab sample and allow the study team to use information about your treatment and side effects.',
          'You will not receive research results, and they will not be used in your care.',
          'There is no cost to you and you will not be paid.',
        ],
      },
      { heading: 'Why is this study being done?' },
      { text: 'Radiation therapy works well for many cancers, but some people have side effects months or years later. We want to learn whether differences in the genes you were born with help predict who is at higher risk, so that future patients and their doctors can choose treatment better.' },
      { heading: 'What will I be asked to do?' },
      { text: 'You will rub two soft swabs on the inside of your cheeks. The study team will collect information from your medical record about your cancer, your radiation treatment and any side effects, now and at your usual follow-up visits.' },
      { heading: 'What are the risks?' },
      { text: 'The swab is painless. The main risk is that someone outside the study sees your information. To lower this risk your sample and data are labelled with a code instead of your name, and only authorised people can see them. Genetic information could, rarely, be used to identify you. U.S. federal law (GINA) generally prevents health insurers and most employers from using genetic information against you; it does not cover life, disability or long-term care insurance.' },
      { heading: 'What happens to my sample and information?' },
      { text: 'Your DNA will be tested for genetic variants linked to radiation side effects. Your sample and coded data will be kept for the length of the study and may be used for other research on radiation side effects. They will not be sold.' },
      { heading: 'Can I change my mind?' },
      { text: 'Yes. Tell the study team at any time. We will stop collecting your information and, if you ask, destroy any sample that is left. Information already used in the research cannot be taken back.' },
      { heading: 'Questions' },
      { text: 'Ask the study team at your clinic. If you have questions about your rights as a research participant, contact the ethics board (IRB) named by your study site.' },
      { heading: 'Signatures' },
      { text: 'By signing, I agree that I have read this form (or had it read to me), my questions have been answered and I agree to take part. I will receive a copy of this form.' },
      { signatures: ['Participant name', 'Participant signature', 'Date', 'Person obtaining consent (name and signature)', 'Date'] },
    ],
  },

  'financial-assistance': {
    subtitle: `Help with the cost of the ${TestName.ProstoxUltra} test, through the MiraKind non-profit program`,
    blocks: [
      { text: `No one should go without the ${TestName.ProstoxUltra} test because of its cost. The financial assistance program, run with our non-profit partner MiraKind, lowers the price for patients who qualify.` },
      { heading: 'What it costs' },
      {
        bullets: [
          `Self-pay price of ${TestName.ProstoxUltra}: ${dollars(ultra.selfPayCents)}.`,
          `Price for patients approved for financial assistance: ${dollars(ultra.assistanceCents)}.`,
          `For orders through MiraKind, ${Math.round(MIRAKIND_DONATION_SHARE * 100)}% of the price is a tax-deductible donation to the non-profit; your receipt shows the amount.`,
        ],
      },
      { heading: 'Who can apply' },
      {
        bullets: [
          'Patients living in the United States whose physician has recommended the test.',
          'Patients without insurance, or whose insurance does not cover the test, or for whom the self-pay price would be a financial hardship.',
          'Eligibility is based on household size and household income. You will be asked for both; you may be asked for proof.',
        ],
      },
      { heading: 'How to apply' },
      {
        steps: [
          'Apply to the financial assistance team through the support address in the Patient Portal.',
          'You will hear from us by email, usually within two business days. If you are approved, the email gives your assistance code: keep it private, it works only for you.',
          'Order in the Patient Portal from the link your clinic gave you. When asked how you will pay, choose financial assistance and enter your assistance code; you pay the reduced price when you complete the order.',
        ],
      },
      { heading: 'Good to know' },
      {
        bullets: [
          'Applying does not affect your care and is kept confidential.',
          'Approval covers one test order. If you need another test later, apply again.',
          'Questions: contact the financial assistance team through the support address in the Patient Portal.',
        ],
      },
    ],
  },

  'patient-information': {
    subtitle: `About the ${TestName.ProstoxUltra} and ${TestName.ProstoxCfrt} tests, for patients`,
    maxPages: 1,
    blocks: [
      { heading: 'What is the test?' },
      { text: 'It is a genetic test from a cheek swab. It looks at genes you were born with to estimate your risk of long-term side effects from radiation therapy for prostate cancer, such as bladder or bowel problems. It does not test your cancer.' },
      { heading: 'Why might my doctor suggest it?' },
      { text: `Radiation can be given as a short course or a longer one. ${ultraOption.test} estimates your risk from a short course (SBRT: ${ultraOption.sessions} over about ${ultraOption.duration}); ${cfrtOption.test} estimates it for a longer course (${cfrtOption.sessions} over about ${cfrtOption.duration}). Your result can help you and your doctor choose the treatment that suits you.` },
      { heading: 'How is it done?' },
      { text: 'You rub two swabs inside your cheeks, at your clinic or at home, and mail them to the lab in the prepaid mailer. See the swab collection instructions in your kit.' },
      { heading: 'What will the result say?' },
      { text: `The result places you in a risk group: ${RISK_LEVELS.join(', ')}. It is a risk, not a certainty: many people in a higher group have no serious side effects, and your doctor will consider it with everything else about your health.` },
      { heading: 'How will I get my result?' },
      { text: 'The lab sends the result to your doctor, usually within two weeks of receiving your sample. You may also get an email with a secure link; you confirm your date of birth to see your result.' },
      { heading: 'What does it cost?' },
      { text: 'Your clinic can bill your insurance. If you pay yourself, financial assistance is available; see the financial assistance program sheet.' },
      { heading: 'Your privacy' },
      { text: 'Your sample is used only for the test you ordered unless you agree otherwise in writing. Your information is kept confidential and every view of your result is recorded.' },
    ],
  },

  'tech-note': {
    subtitle: 'Germline radiation-toxicity risk tests: principle, reporting and limitations, for clinicians',
    blocks: [
      { heading: 'Intended use' },
      { text: `${TestName.ProstoxUltra}, ${TestName.ProstoxCfrt} and ${TestName.Previotox} estimate a patient's risk of late toxicity from radiation therapy, before treatment, from germline DNA. They support, and do not replace, the clinical judgement of the treating physician. ${TestName.Kras} reports a germline KRAS variant genotype.` },
      { heading: 'Principle' },
      { text: 'DNA is extracted from a buccal swab. Germline single-nucleotide variants are genotyped and combined by a validated model into a single risk category for the treatment in question. Because germline DNA does not change, one sample is enough for all the tests of a patient.' },
      { heading: 'What the report says' },
      {
        bullets: [
          `Risk tests: one of ${RISK_LEVELS.join(', ')}. Some panels use two levels: ${TWO_LEVEL_RISKS.join(', ')}.`,
          `${TestName.Kras}: ${KRAS_GENOTYPES.join('; ')}.`,
          'Each report names the test, the sample barcode, dates of collection, receipt and report, and the interpretation for the treatment tested. A corrected report is marked Corrected and keeps the earlier version.',
        ],
      },
      { heading: 'Sample requirements' },
      {
        bullets: [
          'Two buccal swabs in the labelled collection tube, with a matching 14-digit kit barcode on the requisition form.',
          'Shipped at room temperature and received within 14 days of collection.',
        ],
      },
      { heading: 'Quality control' },
      { text: 'Every run includes positive and negative controls; a sample that fails extraction is re-extracted once. Results are released only after review by a second laboratory scientist. A sample that cannot be tested is rejected with one of these reasons:' },
      { bullets: REJECTION_REASONS },
      { heading: 'Limitations' },
      {
        bullets: [
          'The result is a risk estimate. Dose, volume, technique, other treatments and other health conditions also affect toxicity.',
          'Models were developed in specific populations and treatments; performance may differ outside them.',
          `Research panels (${researchTests().join(', ')}) are for research use only and are not reported for patient management.`,
          'Rare events such as a previous bone marrow transplant make a buccal sample unsuitable.',
        ],
      },
    ],
  },
};

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

const TEAL = '#0b6e69';
const INK = '#1f2a2c';
const MUTED = '#5f6b6d';
const MARGIN = 56;
const FOOTER_SPACE = 40;

function render(doc: StaticDocument, text: DocumentText): Promise<number> {
  const pdf = new PDFDocument({
    size: 'LETTER',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: 'en-US',
    displayTitle: true,
    info: { Title: doc.title, Author: PLATFORM, Subject: text.subtitle, CreationDate: EDITION.date, ModDate: EDITION.date },
  });
  const file = path.join(OUT_DIR, doc.file);
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('finish', resolve).on('error', reject);
    pdf.pipe(out);
  });
  const width = pdf.page.width - MARGIN * 2;
  const left = MARGIN;

  // Header band.
  pdf.rect(0, 0, pdf.page.width, 8).fill(TEAL);
  pdf.fillColor(TEAL).font('Helvetica-Bold').fontSize(10).text(PLATFORM.toUpperCase(), left, MARGIN - 20, { characterSpacing: 1 });
  pdf.moveDown(0.6);
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(21).text(doc.title, { width });
  pdf.moveDown(0.25);
  pdf.fillColor(MUTED).font('Helvetica').fontSize(11.5).text(text.subtitle, { width });
  pdf.moveDown(0.5);
  pdf.moveTo(left, pdf.y).lineTo(left + width, pdf.y).lineWidth(0.75).strokeColor('#cdeceb').stroke();
  pdf.moveDown(0.6);

  const body = () => pdf.fillColor(INK).font('Helvetica').fontSize(10.5);
  const gap = 4;
  const bottom = () => pdf.page.height - pdf.page.margins.bottom;
  /** Starts a new page unless `height` more points fit on this one (no orphaned headings or markers). */
  const keep = (height: number) => {
    if (pdf.y + height > bottom()) pdf.addPage();
  };
  for (const block of text.blocks) {
    if ('heading' in block) {
      keep(60);
      pdf.moveDown(0.5);
      pdf.fillColor(TEAL).font('Helvetica-Bold').fontSize(12.5).text(block.heading, left, pdf.y, { width });
      pdf.moveDown(0.25);
    } else if ('text' in block) {
      body().text(block.text, left, pdf.y, { width, lineGap: 2 });
      pdf.moveDown(0.35);
    } else if ('bullets' in block || 'steps' in block) {
      const items = 'bullets' in block ? block.bullets : block.steps;
      items.forEach((item, i) => {
        const marker = 'steps' in block ? `${i + 1}.` : '•';
        keep(body().heightOfString(item, { width: width - 22, lineGap: 2 }));
        const y = pdf.y;
        pdf.font('Helvetica-Bold').fillColor(TEAL).text(marker, left + 4, y, { width: 16 });
        body().text(item, left + 22, y, { width: width - 22, lineGap: 2 });
        pdf.y += gap;
      });
      pdf.moveDown(0.2);
    } else if ('note' in block) {
      pdf.moveDown(0.3);
      const height = pdf.font('Helvetica').fontSize(10).heightOfString(block.note, { width: width - 28, lineGap: 2 }) + 16;
      keep(height);
      const y = pdf.y;
      pdf.rect(left, y, width, height).fill('#e6f7f6');
      pdf.rect(left, y, 3, height).fill(TEAL);
      pdf.fillColor(INK).font('Helvetica').fontSize(10).text(block.note, left + 16, y + 8, { width: width - 28, lineGap: 2 });
      pdf.y = y + height + 6;
    } else {
      pdf.moveDown(0.6);
      for (const label of block.signatures) {
        keep(40);
        pdf.moveDown(1.4);
        const y = pdf.y;
        pdf.moveTo(left, y).lineTo(left + width * 0.7, y).lineWidth(0.6).strokeColor(MUTED).stroke();
        pdf.fillColor(MUTED).font('Helvetica').fontSize(9).text(label, left, y + 4, { width });
      }
    }
  }

  // Footer on every page: edition and page number.
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    pdf.switchToPage(i);
    pdf.page.margins.bottom = 0; // the footer sits in the bottom margin, which would otherwise start a new page
    const y = pdf.page.height - MARGIN;
    pdf.fillColor(MUTED).font('Helvetica').fontSize(8.5);
    pdf.text(`${PLATFORM} · ${doc.title} · ${EDITION.label}`, left, y, { width: width - 60, lineBreak: false });
    pdf.text(`Page ${i + 1} of ${range.count}`, left + width - 60, y, { width: 60, align: 'right', lineBreak: false });
  }
  pdf.end();
  return done.then(() => range.count);
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  for (const doc of STATIC_DOCUMENTS) {
    const text = TEXTS[doc.id];
    const pages = await render(doc, text);
    if (text.maxPages !== undefined && pages > text.maxPages) {
      throw new Error(`${doc.file} has ${pages} pages; it must fit on ${text.maxPages}`);
    }
    console.log(`${path.relative(process.cwd(), path.join(OUT_DIR, doc.file))}: ${pages} page${pages === 1 ? '' : 's'}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
