/** Webhook rows to API shapes (the secret itself never: routes add it when it is shown once). */
import type { DeliveryRow, EndpointRow } from './store.ts';

export function presentWebhook(row: EndpointRow) {
  return {
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    format: row.format,
    enabled: Number(row.enabled) === 1,
    secretHint: row.secret_hint,
    consecutiveFailures: Number(row.consecutive_failures),
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    messageId: row.message_id,
    event: row.event,
    state: row.state,
    attempts: Number(row.attempts),
    statusCode: row.last_status === null ? null : Number(row.last_status),
    responseMs: row.last_response_ms === null ? null : Number(row.last_response_ms),
    error: row.last_error,
    nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    payload: JSON.parse(row.payload) as unknown,
  };
}
