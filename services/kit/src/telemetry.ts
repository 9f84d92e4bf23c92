import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry for a process. Without an OTLP endpoint (and no test exporter) no SDK is
 * started and the API stays a cheap no-op; with one, spans are batched to OTLP/HTTP.
 * Spans are made explicitly (HTTP server spans in app.ts, bus spans in bus/*), which works
 * the same under ESM and in the single-process embedded mode.
 * The SDK and the exporter (a third of a second of module loading) are imported only when a
 * process exports spans, so a start without telemetry does not pay for them (dynamic imports,
 * which a bundle keeps as chunks of their own).
 */

let sdk: NodeSDK | null = null;

export interface TelemetryOptions {
  serviceName: string;
  otlpEndpoint?: string | undefined;
  /** Tests pass an InMemorySpanExporter. */
  exporter?: SpanExporter;
}

export async function startTelemetry(opts: TelemetryOptions): Promise<{ shutdown(): Promise<void> }> {
  if (sdk) return { shutdown: async () => {} };
  if (!opts.exporter && !opts.otlpEndpoint) return { shutdown: async () => {} };
  const [
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { NodeSDK: Sdk },
    { BatchSpanProcessor, SimpleSpanProcessor },
  ] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
  ]);
  if (sdk) return { shutdown: async () => {} };
  const exporter =
    opts.exporter ?? new OTLPTraceExporter({ url: `${opts.otlpEndpoint?.replace(/\/$/, '')}/v1/traces` });
  const processor = opts.exporter
    ? new SimpleSpanProcessor({ exporter })
    : new BatchSpanProcessor({ exporter });
  sdk = new Sdk({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName }),
    spanProcessors: [processor],
    instrumentations: [],
  });
  sdk.start();
  const started = sdk;
  return {
    shutdown: async () => {
      await started.shutdown();
      sdk = null;
    },
  };
}

/**
 * The kit's tracer, looked up at span time: a tracer taken when this module loads would
 * come from the API's own proxy provider (the ESM build) and never see the provider the SDK
 * registers later (through the CommonJS build), so its spans would record nothing.
 */
export const tracer = {
  startSpan: (...args: Parameters<ReturnType<typeof trace.getTracer>['startSpan']>) =>
    trace.getTracer('parley').startSpan(...args),
};

/** W3C traceparent of the active span, if any. */
export function currentTraceparent(ctx: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

export function contextFromHeaders(headers: Record<string, unknown>): Context {
  return propagation.extract(ROOT_CONTEXT, headers, {
    keys: (c) => Object.keys(c),
    get: (c, k) => {
      const v = c[k];
      return Array.isArray(v) ? (v[0] as string) : typeof v === 'string' ? v : undefined;
    },
  });
}

export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const sc = span.spanContext();
  if (!trace.isSpanContextValid(sc)) return {};
  return { trace_id: sc.traceId, span_id: sc.spanId };
}

export function startServerSpan(name: string, parent: Context): { span: Span; ctx: Context } {
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

export function endSpan(span: Span, statusCode: number): void {
  span.setAttribute('http.response.status_code', statusCode);
  if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
