import { Link } from 'react-router';
import { COMPANY_NAME, COMPANY_POSTAL_ADDRESS, LEGAL_EMAIL } from '../../components/contact/company.ts';
import { LegalLayout, type LegalSection } from './legal-layout.tsx';

const mail = <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a>;

const SECTIONS: LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement to these terms',
    body: (
      <>
        <p>
          These Terms and Conditions ("Terms") govern your use of the website, demos and services provided by{' '}
          {COMPANY_NAME} ("Parley", "we", "us"), including our AI voice agents, the Parley console and related
          support (together, the "Services"). By using the Services, or by signing an order form that refers
          to these Terms, you agree to them on behalf of yourself and the business you represent ("Customer",
          "you").
        </p>
        <p>
          If you sign a separate written agreement with Parley, that agreement prevails where it conflicts
          with these Terms. The Services are intended for businesses; you confirm that you are using them for
          business purposes and that you have authority to bind your organisation.
        </p>
      </>
    ),
  },
  {
    id: 'services',
    title: 'The Services',
    body: (
      <p>
        Parley provides AI voice agents that answer and place phone calls for your business, respond to
        callers using the information and instructions you configure, book appointments, transfer calls, and
        produce transcripts, summaries and analytics. Features differ by plan. We may improve and change the
        Services over time; we will not materially reduce the core functionality of a paid plan during a paid
        term.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts and access',
    body: (
      <p>
        You are responsible for the people you give access to the Parley console, for keeping sign-in
        credentials confidential, and for activity under your accounts. Tell us promptly at {mail} if you
        suspect unauthorised access. We may suspend access that we reasonably believe is compromised.
      </p>
    ),
  },
  {
    id: 'fees',
    title: 'Plans, fees and payment',
    body: (
      <>
        <p>Our published plans are:</p>
        <ul>
          <li>
            <strong>Starter</strong>: $299 per month, up to 1,000 minutes, 5 languages, basic analytics and
            email support.
          </li>
          <li>
            <strong>Professional</strong>: $899 per month, up to 5,000 minutes, 25+ languages, advanced
            analytics, the workflow builder and priority support.
          </li>
          <li>
            <strong>Enterprise</strong>: custom pricing, with unlimited minutes, all languages,
            white-labelling, a dedicated manager and 24/7 phone support, as set out in an order form.
          </li>
        </ul>
        <p>
          Fees are billed monthly in advance and are due within 30 days of the invoice date unless your order
          form says otherwise. Minute allowances reset each billing month and do not roll over; minutes above
          your allowance are charged at the overage rate agreed in your order form, or we will offer you a
          move to a larger plan. Fees exclude taxes, which you pay except for taxes on our income. Except
          where these Terms or the law say otherwise, fees are non-refundable. If an undisputed invoice is
          more than 30 days overdue we may, after 10 days' written notice, suspend the Services until it is
          paid.
        </p>
      </>
    ),
  },
  {
    id: 'price-changes',
    title: 'Price changes',
    body: (
      <p>
        We may change our prices. We will give you at least <strong>30 days' notice</strong> by email before a
        price change applies to you, and the new price will apply from your next billing period after the
        notice period ends. If you do not agree with the change, you may cancel before it takes effect and you
        will not be charged the new price.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use and calling laws',
    body: (
      <>
        <p>
          You are responsible for how you use the Services and for the calls made or answered on your behalf.
          You must:
        </p>
        <ul>
          <li>
            comply with all laws that apply to your calls, including the Telephone Consumer Protection Act,
            the Telemarketing Sales Rule, do-not-call rules, and equivalent laws in other countries;
          </li>
          <li>
            obtain any consent required before an AI agent places an outbound call, and honour opt-out
            requests;
          </li>
          <li>
            configure the agent to disclose that callers are speaking with an AI and, where calls are
            recorded, to give the notice and obtain the consent that recording laws require (some
            jurisdictions require the consent of every party);
          </li>
          <li>
            not use the Services to make unsolicited robocalls, harass or deceive anyone, impersonate a person
            or organisation, collect information unlawfully, or transmit malicious code;
          </li>
          <li>
            not rely on the Services for emergency calls. Parley agents are not a substitute for emergency
            services and must be configured to direct callers with an emergency to call 911 or the local
            emergency number;
          </li>
          <li>
            not attempt to probe, overload, reverse-engineer or bypass the security or usage limits of the
            Services.
          </li>
        </ul>
        <p>
          We may suspend calling that we reasonably believe breaks this section, and will tell you promptly
          why.
        </p>
      </>
    ),
  },
  {
    id: 'customer-data',
    title: 'Customer data and privacy',
    body: (
      <>
        <p>
          You own the data you and your callers provide through the Services, including call recordings,
          transcripts, bookings and contact lists ("Customer Data"). You grant Parley the rights needed to
          host and process Customer Data to provide, secure and support the Services. We process Customer Data
          as your processor under our Data Processing Addendum, which forms part of these Terms, and as
          described in our <Link to="/app-privacy">App Privacy Notice</Link>.
        </p>
        <p>
          You are responsible for giving your callers and contacts the privacy notices, and for obtaining the
          consents, that the law requires. We do not use Customer Data to train general-purpose AI models
          without your written permission. Our handling of information about visitors to our website is
          described in our <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'ai-output',
    title: 'AI-generated output',
    body: (
      <p>
        Voice agents generate responses automatically. Although we design them to follow your configuration,
        they can occasionally be inaccurate or incomplete. You are responsible for reviewing your agent's
        configuration, knowledge base and scripts, and for monitoring its calls. Agent responses are not
        medical, legal, financial or other professional advice, and you should configure agents to transfer
        such questions to qualified staff.
      </p>
    ),
  },
  {
    id: 'third-parties',
    title: 'Third-party services',
    body: (
      <p>
        The Services rely on third parties such as telephone carriers and speech providers, and may connect to
        calendars, CRMs and other tools you choose. Your use of third-party tools is governed by their terms.
        We are not responsible for outages or failures of networks and services we do not control, though we
        will work to route around them.
      </p>
    ),
  },
  {
    id: 'availability',
    title: 'Availability and support',
    body: (
      <p>
        We target 99.9% monthly availability for the voice agent service, excluding scheduled maintenance
        announced in advance and events outside our reasonable control. Service credits, where offered, are
        set out in your order form or service-level agreement and are your sole remedy for unavailability.
        Support is provided through the channels included in your plan.
      </p>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property and feedback',
    body: (
      <p>
        Parley and its licensors own the Services, including the software, voices, models, designs and
        documentation. Subject to these Terms and payment of fees, we grant you a non-exclusive,
        non-transferable right to use the Services for your internal business purposes during your
        subscription. If you send us suggestions or feedback, we may use them without obligation to you.
      </p>
    ),
  },
  {
    id: 'confidentiality',
    title: 'Confidentiality',
    body: (
      <p>
        Each party will protect the other's non-public information with at least reasonable care, use it only
        to perform under these Terms, and disclose it only to personnel and advisers who need to know it and
        are bound by similar duties, or where the law requires.
      </p>
    ),
  },
  {
    id: 'warranties',
    title: 'Warranties and disclaimers',
    body: (
      <p>
        We warrant that we will provide the Services with reasonable skill and care and in line with their
        documentation. Except as expressly stated in these Terms, the Services, including free demos and trial
        calls, are provided "as is", and we disclaim all other warranties, express or implied, including
        merchantability, fitness for a particular purpose and non-infringement, to the extent the law allows.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, neither party is liable for indirect, incidental, special, consequential
        or punitive damages, or for lost profits, revenue or data, and each party's total liability arising
        out of these Terms is limited to the fees paid or payable by you to Parley in the 12 months before the
        event giving rise to the claim. These limits do not apply to your payment obligations, to either
        party's indemnity obligations, or to liability that cannot be limited by law.
      </p>
    ),
  },
  {
    id: 'indemnity',
    title: 'Indemnification',
    body: (
      <p>
        You will defend and indemnify Parley against third-party claims arising from your calls, your Customer
        Data, or your breach of the acceptable-use section. We will defend and indemnify you against
        third-party claims that the Services, used as permitted, infringe their intellectual property rights.
      </p>
    ),
  },
  {
    id: 'term',
    title: 'Term, cancellation and termination',
    body: (
      <p>
        Subscriptions renew monthly (or for the term in your order form) until cancelled. You may cancel at
        any time with effect from the end of the current billing period. Either party may terminate for a
        material breach not cured within 30 days of written notice. After termination you may export your
        Customer Data for 30 days, after which we delete it within 90 days, except where the law requires us
        to keep it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these Terms from time to time. For changes that materially affect your rights or
        obligations we will give you at least <strong>30 days' notice</strong> by email or in the Parley
        console before they take effect. If you do not agree, you may cancel before the changes take effect;
        continuing to use the Services after that date means you accept the updated Terms. Changes required by
        law may take effect sooner.
      </p>
    ),
  },
  {
    id: 'law',
    title: 'Governing law and disputes',
    body: (
      <p>
        These Terms are governed by the laws of the Commonwealth of Massachusetts, without regard to its
        conflict-of-laws rules, and the state and federal courts located in Massachusetts have exclusive
        jurisdiction, unless mandatory law of your place of establishment provides otherwise. The parties will
        first try in good faith to resolve any dispute informally within 30 days.
      </p>
    ),
  },
  {
    id: 'general',
    title: 'General',
    body: (
      <p>
        You may not assign these Terms without our consent, except to a successor of your business; we may
        assign them to an affiliate or successor. If a provision is unenforceable, the rest remains in effect.
        Failure to enforce a provision is not a waiver. Neither party is liable for delays caused by events
        beyond its reasonable control. These Terms, with any order form and the Data Processing Addendum, are
        the entire agreement on their subject.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these Terms: {mail}, or write to {COMPANY_NAME}, Attn: Legal, {COMPANY_POSTAL_ADDRESS}
        .
      </p>
    ),
  },
];

/** /terms-conditions: the terms of the Services, with 30 days' notice for price and terms changes. */
export default function TermsConditionsPage() {
  return (
    <LegalLayout
      title="Terms & Conditions"
      description="The terms that govern Parley's AI voice agent services: plans and fees, 30 days' notice of price and terms changes, acceptable use, data, liability and more."
      path="/terms-conditions"
      effective="19 December 2024"
      intro={
        <p>
          Please read these Terms carefully. They explain what you can expect from Parley, what we expect from
          you, and how prices and terms may change, always with at least 30 days' notice.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
