// app/api/orders/route.ts: a route handler that logs, then flushes before answering (serverless
// functions may be frozen right after the response, so do not leave entries queued).
import { log } from '../../../lib/logger';

export async function POST(request: Request): Promise<Response> {
  const order = (await request.json()) as { sku?: string; quantity?: number };
  if (!order.sku) {
    log.warn('Order without sku', { order });
    await log.flush();
    return Response.json({ error: 'sku is required' }, { status: 400 });
  }
  log.info('Order placed', { sku: order.sku, quantity: order.quantity ?? 1 });
  await log.flush();
  return Response.json({ ok: true }, { status: 201 });
}
