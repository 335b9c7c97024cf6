/** The body formats an endpoint may choose (format.ts renders them); apart so the store imports no renderer. */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
