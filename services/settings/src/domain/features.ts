import type { FeatureCategory, FeaturePage } from '@parley/contracts';

/**
 * Feature discovery's catalogue: the features the panel can recommend, each with its screen
 * and benefits. One rule per feature decides its relevance (feature-rules.ts).
 */

export interface Feature {
  title: string;
  description: string;
  icon: string;
  category: FeatureCategory;
  /** A screen of the app (web/src/routes.tsx). */
  actionUrl: string;
  /** The screen the feature lives on (the `page` of the panel). */
  page: FeaturePage;
  benefits: string[];
}

/** The features the panel can recommend. */
export const FEATURES = {
  'email-campaigns': {
    title: 'Email Campaigns',
    description: 'Write a campaign or let AI draft it, preview it for any contact, test it, then send it.',
    icon: 'mail',
    category: 'engagement',
    actionUrl: '/admin/email',
    page: 'email',
    benefits: [
      'One send reaches every contact you imported',
      'Opens and clicks tracked for each contact',
      'Test mode sends to your own addresses first',
    ],
  },
  newsletters: {
    title: 'Blog-to-Newsletter',
    description: 'Turn a published blog post into a newsletter and send it to your address books.',
    icon: 'newspaper',
    category: 'engagement',
    actionUrl: '/admin/newsletters',
    page: 'newsletters',
    benefits: [
      'Every post you write reaches subscribers, not only visitors',
      'Brings readers back to your site',
      'Engagement report for each send',
    ],
  },
  'booking-follow-up': {
    title: 'Booking Follow-up',
    description:
      'Give every booking an outcome after its call: completed, no-show, qualified lead or client.',
    icon: 'calendar-check',
    category: 'productivity',
    actionUrl: '/admin/bookings',
    page: 'bookings',
    benefits: [
      'No prospect is forgotten after the demo',
      'Your dashboard counts become true',
      'Qualified leads stand out for sales',
    ],
  },
  'ai-follow-up-calls': {
    title: 'AI Follow-up Calls',
    description: 'Let your voice agent call people back, with your greeting, and review every conversation.',
    icon: 'phone-call',
    category: 'automation',
    actionUrl: '/admin/voice-ai',
    page: 'voice-ai',
    benefits: [
      'Turns demo callers into booked demos',
      'Every call transcribed in the call history',
      'Hear the agent as your customers do',
    ],
  },
  'brand-intelligence': {
    title: 'Brand Intelligence',
    description: "Read your website's colours, fonts, tone and tagline, so content matches your brand.",
    icon: 'palette',
    category: 'analytics',
    actionUrl: '/admin/settings',
    page: 'settings',
    benefits: [
      'Brand colours and fonts found for you',
      'Tone and keywords for AI-written content',
      'Runs again whenever your site changes',
    ],
  },
  'contact-import': {
    title: 'Contact Import',
    description: 'Import contacts from CSV or Excel into address books, kept apart by audience.',
    icon: 'book-user',
    category: 'productivity',
    actionUrl: '/admin/address-books',
    page: 'address-books',
    benefits: [
      'Large files imported with live progress',
      'Duplicates merged, unsubscribed addresses kept out',
      'Separate books for separate audiences',
    ],
  },
  'ai-blog-writer': {
    title: 'AI Blog Writer',
    description: 'Generate a full article, with its image, from a topic; edit it and publish.',
    icon: 'pen-line',
    category: 'automation',
    actionUrl: '/blog-admin',
    page: 'blog',
    benefits: [
      'A complete draft in seconds',
      'Search titles and descriptions written for you',
      'Regular posts keep your site found',
    ],
  },
  'booking-insights': {
    title: 'Booking Insights',
    description: 'Filter bookings by status, period and search on the dashboard to see your pipeline.',
    icon: 'chart-column',
    category: 'analytics',
    actionUrl: '/admin/dashboard',
    page: 'dashboard',
    benefits: [
      'See this week’s and the next 24 hours’ demos',
      'Find any booking by name, company or phone',
      'Track no-shows and qualified leads',
    ],
  },
  'campaign-analytics': {
    title: 'Campaign Analytics',
    description: 'Compare sends, opens, clicks and bounces across your campaigns.',
    icon: 'chart-line',
    category: 'analytics',
    actionUrl: '/admin/email',
    page: 'email',
    benefits: [
      'Open and click rates for every campaign',
      'Spot the subjects that work',
      'Bounces show which addresses to clean',
    ],
  },
} as const satisfies Record<string, Feature>;

export type FeatureId = keyof typeof FEATURES;
