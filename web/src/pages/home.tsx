import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { revealSection } from '../components/layout/section-link.tsx';
import { PageMeta } from '../components/seo/page-meta.tsx';
import { About } from './home/about.tsx';
import { Contact } from './home/contact.tsx';
import { Demos } from './home/demos.tsx';
import { Features } from './home/features.tsx';
import { Hero } from './home/hero.tsx';
import { Pricing } from './home/pricing.tsx';
import { Technology } from './home/technology.tsx';
import { Testimonials } from './home/testimonials.tsx';

const TITLE = 'Parley — AI voice agents that answer calls and book appointments';
const DESCRIPTION =
  'Parley builds AI voice agents that answer your business calls, qualify callers and book appointments around the clock, in 50+ languages, with 98.7% accuracy and 99.9% uptime.';

/** How long the page may still be settling (fonts, images, late sections) after arrival. */
const SETTLE_MS = 2000;

/**
 * Keeps the section arrived at under the nav bar while the page above it settles (a section
 * above that changes height would otherwise move it away), until the visitor scrolls, types
 * or the page has settled.
 */
function keepInView(id: string): () => void {
  const el = document.getElementById(id);
  if (!el || typeof ResizeObserver === 'undefined') return () => {};
  const resized = new ResizeObserver(() => el.scrollIntoView({ behavior: 'instant', block: 'start' }));
  const stop = () => {
    resized.disconnect();
    clearTimeout(timer);
    for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
      window.removeEventListener(type, stop);
  };
  const timer = setTimeout(stop, SETTLE_MS);
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
    window.addEventListener(type, stop, { passive: true });
  resized.observe(document.body);
  return stop;
}

/**
 * The home page (spec §2 "Home page"): hero, features, technology, testimonials, demo
 * scenarios, pricing, about and contact, in that order (the footer is the layout's). Plain
 * components in one chunk, so the first paint needs no further requests.
 */
export default function HomePage() {
  const { hash } = useLocation();

  // Arriving from another route (or a shared link) with '/#pricing': the section did not
  // exist when the browser or the router looked for it, so bring it into view now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on arrival only; later hash changes scroll themselves.
  useEffect(() => {
    let id = '';
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return; // a malformed hash names no section
    }
    // An instant jump, as a page load does: a smooth scroll could be cut short by the router's
    // own scroll handling of the same navigation.
    if (!id || !revealSection(id, 'instant')) return;
    return keepInView(id);
  }, []);

  return (
    <>
      <PageMeta title={TITLE} description={DESCRIPTION} path="/" />
      <Hero />
      <Features />
      <Technology />
      <Testimonials />
      <Demos />
      <Pricing />
      <About />
      <Contact />
    </>
  );
}
