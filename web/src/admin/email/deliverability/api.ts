import type { DeliverabilityReport, DnsCheckResult } from '@parley/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminQueryRetry, adminRequest } from '../../lib/api.ts';
import { withTest } from '../analytics/include-test-toggle.tsx';

/** The Deliverability tab's calls (email marketing §7). */

export const DELIVERABILITY_PATH = '/api/admin/email/deliverability';
export const DNS_CHECK_PATH = '/api/admin/email/dns-check';

/** Read on every visit of the tab (a send just made shows at once) and on Refresh; live mail unless `includeTest`. */
export function useDeliverability(includeTest = false) {
  return useQuery<DeliverabilityReport>({
    queryKey: [withTest(DELIVERABILITY_PATH, includeTest)],
    placeholderData: keepPreviousData,
    staleTime: 0,
    ...adminQueryRetry,
  });
}

/** The DNS check of the settings' sender domain, or of `domain` (a campaign's sender). */
export const checkDns = (domain?: string) =>
  adminRequest<DnsCheckResult>(
    'GET',
    domain ? `${DNS_CHECK_PATH}?${new URLSearchParams({ domain })}` : DNS_CHECK_PATH,
  );
