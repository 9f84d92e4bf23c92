import { createLogger, drainConnections, loadConfig, startTelemetry } from '@parley/kit';
import { buildGateway } from './app.ts';
import { GatewayEnv } from './config.ts';

/** Gateway process entry: validated env, telemetry, listen, graceful shutdown. */
const logger = createLogger('gateway', process.env.LOG_LEVEL);
try {
  const config = loadConfig('gateway', GatewayEnv);
  const telemetry = await startTelemetry({
    serviceName: 'gateway',
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const app = await buildGateway(config, { logger });
  await app.listen({ host: config.HOST ?? '0.0.0.0', port: config.PORT ?? 3000 });
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    logger.info(await drainConnections(app.server), 'connections drained');
    await app.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (err) {
  logger.fatal({ err }, 'gateway failed to start');
  process.exit(1);
}
