import { Link } from 'react-router';
import { COMPANY_NAME, COMPANY_POSTAL_ADDRESS, PRIVACY_EMAIL } from '../../components/contact/company.ts';
import { LegalLayout, type LegalSection } from './legal-layout.tsx';

const mail = <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>;

const SECTIONS: LegalSection[] = [
  {
    id: 'scope',
    title: 'Scope and roles',
    body: (
      <>
        <p>
          This notice explains how the Parley application handles personal information: the AI voice agents
          that answer and place calls for our business customers, the bookings they create, and the Parley
          console that customers' staff use to manage agents, bookings, content and email.
        </p>
        <p>
          When a Parley agent talks to a caller on behalf of a business,{' '}
          <strong>that business is the controller</strong> of the caller's information and Parley is its{' '}
          <strong>processor</strong>: we handle the information only on the business's instructions and under
          our Data Processing Addendum. If you called a business that uses Parley, please contact that
          business first about your information; we will help it respond. Information about visitors to our
          own website is covered by our <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'data-we-process',
    title: 'Information the app processes',
    body: (
      <>
        <h3>Callers</h3>
        <ul>
          <li>
            Phone number, caller ID name where the carrier provides it, and the time, duration and outcome of
            the call.
          </li>
          <li>
            <strong>Call recordings</strong>, where the business has switched recording on, and{' '}
            <strong>transcripts</strong> and summaries of the conversation.
          </li>
          <li>
            What the caller chooses to say, for example the reason for the call or appointment details. In
            some industries this can include sensitive information such as health details; businesses
            configure what their agent asks for and must only collect what they need.
          </li>
        </ul>
        <h3>Bookings</h3>
        <ul>
          <li>
            Name, email address, phone number, company, notes, guests' names and email addresses, the booked
            time and time zone, and the booking's status.
          </li>
        </ul>
        <h3>Contact requests</h3>
        <ul>
          <li>
            First name, last name, email address, company, company size and message sent through a contact
            form.
          </li>
        </ul>
        <h3>Console users</h3>
        <ul>
          <li>
            Name, email address, role, a one-way hash of the password (never the password itself), invitation
            and sign-in records, and a log of administrative actions for security and audit.
          </li>
        </ul>
        <h3>Email marketing contacts</h3>
        <ul>
          <li>
            Contacts and address books a business imports, campaign and newsletter sends, opens, clicks and
            unsubscribes.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How the app uses information',
    body: (
      <>
        <ul>
          <li>To answer and place calls, understand callers and reply with synthesised speech.</li>
          <li>
            To create, confirm and manage bookings, and to send confirmation emails and calendar invitations.
          </li>
          <li>To show the business its transcripts, recordings, bookings and analytics in the console.</li>
          <li>
            To keep the service secure: authenticate console users, rate-limit public endpoints and
            investigate abuse.
          </li>
          <li>To provide support when the business asks us to look at a specific call or booking.</li>
          <li>To improve reliability and quality using aggregated or de-identified measurements.</li>
        </ul>
        <p>
          We do not sell personal information, use it for advertising, or use callers' recordings or
          transcripts to train general-purpose AI models without the business's written permission.
        </p>
      </>
    ),
  },
  {
    id: 'recording-and-disclosure',
    title: 'Call recording and AI disclosure',
    body: (
      <p>
        Recording is off unless the business turns it on. Businesses are responsible for telling callers that
        they are speaking with an AI and, where calls are recorded, for giving the notices and obtaining the
        consents that the law requires; Parley agents support a configurable greeting for this purpose. Some
        U.S. states and other countries require the consent of every party to a recorded call.
      </p>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and local storage',
    body: (
      <>
        <p>
          The app sets a single cookie: the <strong>admin session cookie</strong>, placed when a console user
          signs in. It holds a random token (only a hash of it is stored on our servers), is HttpOnly,
          SameSite and, over HTTPS, Secure with the __Host- prefix. It expires after 24 hours of inactivity
          and is deleted at sign-out. It is strictly necessary and is not used for tracking.
        </p>
        <p>
          Callers are never given cookies. The app uses no tracking or advertising technologies; usage
          analytics run only if the operator of a deployment configures an analytics service, in which case
          that operator must disclose it and obtain any consent required.
        </p>
      </>
    ),
  },
  {
    id: 'subprocessors',
    title: 'Subprocessors',
    body: (
      <>
        <p>Depending on the features a business enables, the app uses these categories of subprocessors:</p>
        <ul>
          <li>
            <strong>Telephony</strong> (such as Twilio): connects calls and reports call status.
          </li>
          <li>
            <strong>Speech</strong> (such as ElevenLabs): converts the agent's replies to speech and callers'
            speech to text.
          </li>
          <li>
            <strong>AI language and image models</strong> (such as OpenAI): generate agent replies and, in the
            console, draft blog content and images.
          </li>
          <li>
            <strong>Email delivery</strong> (such as Amazon SES or an SMTP provider): sends booking
            confirmations, invitations, notifications and campaigns.
          </li>
          <li>
            <strong>Cloud hosting</strong>: runs the application and its databases.
          </li>
        </ul>
        <p>
          Where a provider is not configured, the app uses its built-in local alternative (an on-server speech
          engine, simulated calls, and an email outbox viewable in the console), so that data stays within the
          deployment. We give business customers at least 30 days' notice of a new subprocessor, and a current
          list is available from {mail}.
        </p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'Retention and deletion',
    body: (
      <>
        <ul>
          <li>
            Call recordings: 90 days by default; a business can choose a shorter or longer period, or none.
          </li>
          <li>Transcripts and call records: 12 months by default, configurable by the business.</li>
          <li>
            Bookings and contact requests: for as long as the business keeps them, and deleted with its
            account.
          </li>
          <li>
            Console sessions: deleted at sign-out or after 24 hours of inactivity; audit logs: 12 months.
          </li>
          <li>Email unsubscribes: kept as a suppression list so that the person is not emailed again.</li>
          <li>Backups: overwritten on a rolling 35-day cycle.</li>
        </ul>
        <p>
          When a business closes its account it can export its data for 30 days; we then delete it from live
          systems within 90 days, and from backups as they expire.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Data is encrypted in transit and at rest. Access to customer data is limited to staff who need it,
        protected by strong authentication and logged. Passwords are stored only as salted Argon2id hashes and
        session tokens only as hashes. Our controls are assessed against SOC 2 Type II and ISO 27001, and we
        notify affected businesses without undue delay of a personal-data breach.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights (GDPR and CCPA)',
    body: (
      <>
        <p>
          Depending on where you live, you may have the right to access, correct, delete or port your
          information, to object to or restrict its processing, to withdraw consent, and, in California, to
          know what is collected and not to be discriminated against for exercising your rights. Parley does
          not sell or share personal information for cross-context behavioural advertising.
        </p>
        <p>
          If you were a caller or a contact of a business using Parley, send your request to that business; if
          you contact us instead, we will pass it on and support the business in answering, normally within
          one month (GDPR) or 45 days (CCPA). Console users and anyone else may contact us directly at {mail}.
          You also have the right to complain to a data-protection authority.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        The app is built for businesses and is not intended for use by children. Businesses must not configure
        agents to collect information from children under 13 (or under 16 in the EEA and UK) without the
        consent the law requires.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this notice',
    body: (
      <p>
        We will post any update here with a new effective date, and tell business customers by email at least
        30 days before a material change takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Privacy questions about the app: {mail}, or write to {COMPANY_NAME}, Attn: Privacy,{' '}
        {COMPANY_POSTAL_ADDRESS}.
      </p>
    ),
  },
];

/** /app-privacy: how the Parley application processes caller, booking and console data. */
export default function AppPrivacyPage() {
  return (
    <LegalLayout
      title="App Privacy"
      description="How the Parley application processes call recordings, transcripts, bookings and console data on behalf of businesses, its subprocessors, retention, and your rights."
      path="/app-privacy"
      effective="19 December 2024"
      intro={
        <p>
          This App Privacy Notice applies to the Parley voice agent application and console, effective 19
          December 2024.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
