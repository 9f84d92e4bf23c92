/**
 * Per-route search and sharing metadata of a public page. React 19 hoists <title>, <meta> and
 * <link> rendered anywhere into <head> and removes them when the page unmounts, so each page
 * renders one <PageMeta> near its top.
 */

import { SITE_NAME } from '@parley/contracts/web';
import { siteOrigin } from '../../lib/origin.ts';

export { SITE_NAME };

export function PageMeta({
  title,
  description,
  path,
}: {
  /** The page's own title; the site name is appended (the home page passes the full title). */
  title: string;
  description: string;
  /** The canonical path of the page, e.g. '/use-cases'. */
  path: string;
}) {
  const fullTitle = title.includes(SITE_NAME) ? title : `${title} · ${SITE_NAME}`;
  const url = `${siteOrigin()}${path}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta name="twitter:card" content="summary" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
    </>
  );
}
