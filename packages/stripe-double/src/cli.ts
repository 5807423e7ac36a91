#!/usr/bin/env node
// Runs the Stripe double by itself for manual testing or a benchmark:
// `node dist/cli.js --port 12111 --webhook http://127.0.0.1:8080/v1/billing/webhook`.
import { parseArgs } from 'node:util';
import { startStripeDouble } from './start-stripe-double.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '12111' },
      'secret-key': { type: 'string' },
      webhook: { type: 'string' },
      'webhook-secret': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be a port number');
  const double = await startStripeDouble({ port, secretKey: values['secret-key'] });
  const lines = [
    `Stripe double listening on ${double.baseUrl}`,
    `STRIPE_SECRET_KEY=${double.secretKey}`,
    `STRIPE_API_BASE_URL=${double.baseUrl}`,
  ];
  if (values.webhook) {
    const endpoint = double.addWebhookEndpoint(values.webhook, { secret: values['webhook-secret'] });
    lines.push(`STRIPE_WEBHOOK_SECRET=${endpoint.secret}   (events go to ${endpoint.url})`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    double.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
