import { Link } from 'react-router';
import {
  COMPANY_NAME,
  COMPANY_POSTAL_ADDRESS,
  PRIVACY_EMAIL,
  SALES_HOURS,
} from '../../components/contact/company.ts';
import { LegalLayout, type LegalSection } from './legal-layout.tsx';

const mail = <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>;

const SECTIONS: LegalSection[] = [
  {
    id: 'scope',
    title: 'Who we are and what this policy covers',
    body: (
      <>
        <p>
          {COMPANY_NAME} ("Parley", "we", "us") provides AI voice agents that answer business phone calls,
          answer questions and book appointments. This Privacy Policy explains how we handle personal
          information when you visit our website, read our blog, try our demos, request a demo, book a demo or
          receive emails from us. For these activities Parley is the controller of your personal information.
        </p>
        <p>
          When a business uses Parley to answer its own calls, that business decides how its callers'
          information is used and Parley processes it on the business's behalf. That processing is described
          in our <Link to="/app-privacy">App Privacy Notice</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <>
        <h3>Information you give us</h3>
        <ul>
          <li>
            <strong>Contact form:</strong> first name, last name, email address, company, company size and
            your message.
          </li>
          <li>
            <strong>Demo bookings:</strong> your name, email address, phone number (optional), company
            (optional), notes, the names and email addresses of guests you invite, and the date and time you
            choose.
          </li>
          <li>
            <strong>Demo calls:</strong> when you ask our AI agent to call you, the phone number you enter
            and, if you give it, your name. The demo call itself is processed as described below.
          </li>
          <li>
            <strong>Correspondence:</strong> anything you tell us when you email or phone our team.
          </li>
        </ul>
        <h3>Information created when you use our demos</h3>
        <ul>
          <li>
            <strong>Demo call data:</strong> the call's time, duration and status and a transcript of the
            conversation. Demo calls are placed by an AI agent, not a person. If call recording is switched
            on, you are told at the start of the call and the audio recording is kept as described below.
          </li>
          <li>
            <strong>Speech demos:</strong> the use-case and simulated-call demos send fixed, scripted text to
            our speech service to produce audio. They do not record your voice. The optional microphone panel
            of the voice-wave demo runs in your browser and does not send audio to us.
          </li>
        </ul>
        <h3>Information collected automatically</h3>
        <ul>
          <li>
            <strong>Server logs:</strong> IP address, browser type, the page or API address requested, the
            time and the response code. We use them to run, secure and rate-limit the service.
          </li>
          <li>
            <strong>Email engagement:</strong> if you receive our newsletters or campaigns, whether a message
            was opened and which links were clicked, so we can measure and improve our emails. Every marketing
            email has an unsubscribe link.
          </li>
          <li>
            <strong>Analytics (only if configured):</strong> our website loads no analytics or advertising
            scripts by default. If we enable an analytics service in future, it will record pages viewed and
            actions such as form submissions, and this policy will be updated first. See{' '}
            <a href="#cookies">Cookies</a>.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How we use your information and our legal bases',
    body: (
      <>
        <ul>
          <li>
            <strong>To answer your request and hold your demo</strong>: reply to contact-form messages (we aim
            to respond within 2 hours, {SALES_HOURS}), schedule and confirm demos, send calendar invitations
            to you and your guests, and place the demo call you asked for. Legal basis: steps you asked us to
            take before a contract, and our legitimate interest in responding to business enquiries.
          </li>
          <li>
            <strong>To follow up on sales conversations</strong> with information about Parley that is
            relevant to your enquiry. Legal basis: legitimate interests. You can ask us to stop at any time.
          </li>
          <li>
            <strong>To send newsletters and marketing emails</strong> where you have subscribed or where the
            law allows us to contact business customers. Legal basis: consent or legitimate interests. You can
            unsubscribe with one click.
          </li>
          <li>
            <strong>To keep the service secure</strong>: prevent abuse of our public forms and demo calls (for
            example by rate limits), detect fraud and investigate incidents. Legal basis: legitimate
            interests.
          </li>
          <li>
            <strong>To improve our website and demos</strong> using aggregated information. Legal basis:
            legitimate interests.
          </li>
          <li>
            <strong>To meet legal obligations</strong>, such as keeping business records and answering lawful
            requests from authorities.
          </li>
        </ul>
        <p>
          We do not sell your personal information, we do not share it for cross-context behavioural
          advertising, and we do not make decisions about you based solely on automated processing that have
          legal or similarly significant effects.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and similar technologies',
    body: (
      <>
        <p>
          Visitors to our public website receive no cookies from us. The only cookie Parley sets is the{' '}
          <strong>admin session cookie</strong>, which is placed only when a member of staff signs in to the
          Parley back office. It is strictly necessary, cannot be read by page scripts (HttpOnly), is
          restricted to our site (SameSite), holds a random token rather than personal details, and expires
          after 24 hours of inactivity or at sign-out.
        </p>
        <p>
          We use no tracking, advertising or analytics cookies unless an analytics service is configured. If
          one is, we will list its cookies here and, where the law requires, ask for your consent before they
          are set. Marketing emails may contain a small image and tracked links that tell us whether a message
          was opened or clicked; most email programs let you block images.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share information',
    body: (
      <>
        <p>We share personal information only with:</p>
        <ul>
          <li>
            <strong>Service providers (subprocessors)</strong> who process it on our instructions, under
            contracts that require confidentiality and security: cloud hosting and database providers;
            telephony providers that place demo calls (such as Twilio); speech-synthesis and
            speech-recognition providers (such as ElevenLabs); AI language-model providers (such as OpenAI)
            where a feature uses them; and email-delivery providers (such as Amazon SES or an SMTP provider)
            that send confirmations and newsletters. A current list is available on request from {mail}.
          </li>
          <li>
            <strong>Professional advisers</strong> such as lawyers and auditors, under duties of
            confidentiality.
          </li>
          <li>
            <strong>Authorities</strong> where the law requires it, or to protect the rights, property or
            safety of our customers, our users or the public.
          </li>
          <li>
            <strong>A successor business</strong> if Parley is involved in a merger, acquisition or sale of
            assets, in which case this policy will continue to protect your information.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International transfers',
    body: (
      <p>
        Parley is based in the United States and some of our providers process data in other countries. When
        we transfer personal information from the European Economic Area, the United Kingdom or Switzerland,
        we rely on an adequacy decision (including the EU-U.S. Data Privacy Framework where the recipient is
        certified) or the European Commission's Standard Contractual Clauses with the UK Addendum, together
        with additional safeguards where needed.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep information',
    body: (
      <>
        <p>We keep personal information only as long as we need it for the purposes above:</p>
        <ul>
          <li>Contact-form requests and demo bookings: 24 months after our last interaction with you.</li>
          <li>Demo call recordings and transcripts: 90 days; call records without audio: 24 months.</li>
          <li>Server logs: 30 days, unless needed longer to investigate a security incident.</li>
          <li>
            Email engagement data: while you are subscribed and 24 months after. If you unsubscribe we keep
            your email address on a suppression list so we do not email you again.
          </li>
          <li>Records we must keep by law (for example invoices): for the period the law requires.</li>
        </ul>
        <p>When information is no longer needed we delete it or make it anonymous.</p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        We protect personal information with encryption in transit, access controls based on least privilege,
        hashed passwords and session tokens, audit logging and regular review of our controls, which are
        assessed against SOC 2 Type II and ISO 27001. No method of transmission or storage is completely
        secure, so we cannot guarantee absolute security, but we will notify you and the authorities of a
        breach where the law requires.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <h3>Everyone</h3>
        <p>
          You can ask us what information we hold about you, ask us to correct or delete it, and unsubscribe
          from marketing at any time. Write to {mail}.
        </p>
        <h3>EEA, UK and Swiss residents (GDPR)</h3>
        <p>
          You have the right to access, rectify and erase your personal data, to restrict or object to its
          processing (including, at any time, to processing for direct marketing), to data portability, and to
          withdraw consent where we rely on it, without affecting processing before withdrawal. You may also
          lodge a complaint with your local data-protection authority. We answer within one month, extendable
          by two months for complex requests.
        </p>
        <h3>California residents (CCPA as amended by the CPRA)</h3>
        <p>
          You have the right to know the categories and specific pieces of personal information we collect,
          use and disclose; to delete it; to correct it; to opt out of its sale or sharing (we do not sell or
          share it); to limit the use of sensitive personal information (we do not use it for purposes that
          require this); and not to be discriminated against for exercising these rights. In the last 12
          months we collected the categories described in{' '}
          <a href="#information-we-collect">Information we collect</a> (identifiers, commercial information,
          internet activity, audio recordings of demo calls, and professional information) for the business
          purposes described above. We answer within 45 days. An authorised agent may make a request for you
          with your signed permission.
        </p>
        <h3>How we handle requests</h3>
        <p>
          To protect you, we verify requests by confirming control of the email address or phone number we
          hold. If we decline a request, we explain why, and you may appeal by replying to our answer.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        Our website and services are for businesses and are not directed to children under 16. We do not
        knowingly collect their personal information; if you believe we have, contact us and we will delete
        it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this policy as our services or the law change. We will post the new version here with a
        new effective date and, for material changes, tell customers and subscribers by email before they take
        effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <p>
        Questions or requests about privacy: {mail}, or write to {COMPANY_NAME}, Attn: Privacy,{' '}
        {COMPANY_POSTAL_ADDRESS}. If you are in the EEA or UK and we appoint a representative there, their
        details will be listed here.
      </p>
    ),
  },
];

/** /privacy-policy: how Parley handles the information of site visitors and prospects. */
export default function PrivacyPolicyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      description="How Parley collects, uses and protects personal information from its website, demo bookings, contact form and demo calls, and your rights under GDPR and CCPA."
      path="/privacy-policy"
      effective="19 December 2024"
      intro={
        <p>
          Your privacy matters to us. This policy describes what we collect when you use Parley's website and
          demos, why, who we share it with, how long we keep it and the choices you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
