import {
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignInput,
  type CampaignList,
  type CampaignMergeCheckBody,
  type CampaignProgress,
  type CampaignStatus,
  type DeletedResponse,
  type MergeCheckResponse,
  type SendCampaignBody,
  type SendCampaignResponse,
  type SendTestBody,
  type SendTestResponse,
} from '@parley/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import type { ToastInput } from '../../../components/toast/index.ts';
import { adminQueryRetry, adminRequest, messageOr } from '../../lib/api.ts';

/**
 * The campaigns' calls (email marketing §7; duplicate, pause, resume and progress are the
 * service's own paths in the gateway's route table) and the spec's notices for them (§8).
 */

export const CAMPAIGNS_PATH = '/api/admin/email/campaigns';
export const SEND_TEST_PATH = '/api/admin/email/send-test';
export const ANALYTICS_PATH = '/api/admin/email/analytics';

/** A sending campaign's progress is read this often. */
export const PROGRESS_POLL_MS = 1000;

const campaignPath = (id: number) => `${CAMPAIGNS_PATH}/${id}`;
export const progressPath = (id: number) => `${campaignPath(id)}/progress`;

/** A test-mode send under way: the list is read again until it is done (it changes no status). */
const testSending = (campaigns: Campaign[] | undefined) =>
  Boolean(campaigns?.some((c) => c.testSends.last?.status === 'sending'));

export function useCampaigns() {
  return useQuery<CampaignList, Error, Campaign[]>({
    queryKey: [CAMPAIGNS_PATH],
    select: (r) => r.campaigns,
    staleTime: 0,
    refetchInterval: (q) => (testSending(q.state.data?.campaigns) ? PROGRESS_POLL_MS * 2 : false),
    ...adminQueryRetry,
  });
}

/**
 * The pre-send check of merge fields for the audience the send dialog holds (read again when
 * it changes): the recipients who will see a blank, to be acknowledged before sending.
 */
export function useMergeCheck(campaignId: number | null, body: CampaignMergeCheckBody, enabled: boolean) {
  const path = `${campaignPath(campaignId ?? 0)}/merge-check`;
  return useQuery<MergeCheckResponse>({
    queryKey: [path, body],
    queryFn: () => adminRequest<MergeCheckResponse>('POST', path, body),
    enabled: enabled && campaignId !== null,
    // The last audience's result stays shown while the next one is counted.
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
    ...adminQueryRetry,
  });
}

/** Live progress, polled only while the campaign is sending (starting from what the list says). */
export function useCampaignProgress(campaign: Campaign) {
  const live = campaign.status === 'sending';
  return useQuery<CampaignProgress>({
    queryKey: [progressPath(campaign.id)],
    initialData: campaign.progress,
    initialDataUpdatedAt: 0,
    enabled: live,
    staleTime: 0,
    refetchInterval: (q) => (live && q.state.data?.status === 'sending' ? PROGRESS_POLL_MS : false),
    ...adminQueryRetry,
  });
}

/**
 * Whether the campaign list is behind its send: the list says sending, and an answer of the
 * progress poll (not one on its way) says otherwise (it finished, or was paused or cancelled
 * elsewhere). The list is then read again, so the card's status and counts follow. Decided from
 * the answer itself, not from having seen it sending: a send that finishes before the first
 * poll after a resume is never seen sending by the card.
 */
export function listIsBehind(
  listStatus: Campaign['status'],
  polled: CampaignProgress | undefined,
  fetching: boolean,
): boolean {
  return listStatus === 'sending' && !fetching && polled !== undefined && polled.status !== 'sending';
}

/** After any change: the list (cards, summary) and the analytics are read again. */
export async function refreshCampaigns(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: [CAMPAIGNS_PATH] }),
    queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(ANALYTICS_PATH) }),
  ]);
}

export const createCampaign = (input: CampaignInput) => adminRequest<Campaign>('POST', CAMPAIGNS_PATH, input);
export const updateCampaign = (id: number, input: CampaignInput) =>
  adminRequest<Campaign>('PATCH', campaignPath(id), input);
export const deleteCampaign = (id: number) => adminRequest<DeletedResponse>('DELETE', campaignPath(id));
export const duplicateCampaign = (id: number) =>
  adminRequest<Campaign>('POST', `${campaignPath(id)}/duplicate`, {});
export const pauseCampaign = (id: number) => adminRequest<Campaign>('POST', `${campaignPath(id)}/pause`, {});
export const cancelCampaign = (id: number) =>
  adminRequest<Campaign>('POST', `${campaignPath(id)}/cancel`, {});
export const resumeCampaign = (id: number) =>
  adminRequest<Campaign>('POST', `${campaignPath(id)}/resume`, {});
export const sendCampaign = (id: number, body: SendCampaignBody) =>
  adminRequest<SendCampaignResponse>('POST', `${campaignPath(id)}/send`, body);
export const resendCampaign = (id: number, contactIds: number[], addressBookIds: number[]) =>
  adminRequest<SendCampaignResponse>('POST', `${campaignPath(id)}/resend`, { contactIds, addressBookIds });
export const sendTest = (body: SendTestBody) => adminRequest<SendTestResponse>('POST', SEND_TEST_PATH, body);

// ── the spec's notices (§8) ─────────────────────────────────────────────────

/** A send's failure, chosen by its message (spec §8). */
export function sendErrorToast(err: unknown): ToastInput {
  const message = messageOr(err, '');
  const m = message.toLowerCase();
  const noContacts: string[] = [CAMPAIGN_MESSAGES.noContactsLive, CAMPAIGN_MESSAGES.noContactsTest];
  if (m.includes(CAMPAIGN_MESSAGES.noContacts.toLowerCase()) || noContacts.includes(message))
    return { variant: 'destructive', title: CAMPAIGN_MESSAGES.noContacts, description: message };
  if (m.includes('temporarily blocked') || m.includes('connection'))
    return { variant: 'destructive', title: 'Email Sending Blocked', description: message };
  if (m.includes(CAMPAIGN_MESSAGES.frequency.toLowerCase()) || /^maximum \d+ campaigns per hour/.test(m))
    return { variant: 'destructive', title: 'Campaign Frequency Limit', description: message };
  if (m.includes(CAMPAIGN_MESSAGES.failed.toLowerCase()))
    return { variant: 'destructive', title: 'Email Protection Active', description: message };
  return { variant: 'destructive', title: 'Error', description: message || CAMPAIGN_MESSAGES.failed };
}

// ── display ─────────────────────────────────────────────────────────────────

export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

export const CAMPAIGN_STATUS_BADGE: Record<CampaignStatus, string> = {
  draft: 'border-slate-400/40 bg-slate-400/10 text-slate-200',
  scheduled: 'border-violet-400/40 bg-violet-400/10 text-violet-200',
  sending: 'border-cyan-400/40 bg-cyan-400/10 text-cyan-200',
  paused: 'border-amber-400/40 bg-amber-400/10 text-amber-200',
  sent: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200',
  cancelled: 'border-red-400/40 bg-red-400/10 text-red-200',
};

export const formatRate = (percent: number) => `${percent.toFixed(1)}%`;
