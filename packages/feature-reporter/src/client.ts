import { ApiError, createTransport, SdkError, type Transport, type TransportOptions } from '@signpost/sdk-core';
import type {
  Attachment,
  Changelog,
  Channel,
  Comment,
  CommentList,
  CreatedFeature,
  Feature,
  FeatureList,
  FeedbackInput,
  ListFeaturesQuery,
  NewComment,
  PageQuery,
  Roadmap,
  RoadmapQuery,
  SubmitInput,
  MyIdeas,
  Suggestions,
  VoteState,
  WidgetPerson,
} from './types.js';

export interface FeatureReporterOptions extends Omit<TransportOptions, 'apiKey'> {
  /** A project key with `features:read` / `features:write` (the demo key works against a local server). */
  apiKey: string;
  /** Sent with every submission. Default `sdk`; the widget uses `widget`. */
  channel?: Channel;
  /** Merged into every submission's `metadata` (app version, plan, page…). */
  metadata?: Record<string, unknown>;
}

/**
 * The feature-request client. Every method returns a promise that resolves with the API's answer
 * or rejects with `ApiError` (the API said no: status and `{ error, details }`) or `SdkError`
 * (network, timeout, rate limit on this side). Nothing is thrown synchronously.
 */
export interface FeatureReporter {
  /** POST /features with `type: "feature"`. */
  submitFeature(input: FeedbackInput): Promise<CreatedFeature>;
  /** POST /features with `type: "bug"` (stored with status `new`). */
  submitBug(input: FeedbackInput): Promise<CreatedFeature>;
  /** POST /features with the given type (default `feature`). */
  submit(input: SubmitInput): Promise<CreatedFeature>;
  /** GET /features: public items, newest first. */
  listFeatures(query?: ListFeaturesQuery): Promise<FeatureList>;
  /** GET /features/{id}: one public item (404 `ApiError` when missing or internal). */
  getFeature(featureId: string): Promise<Feature>;
  /** GET /roadmap: public items grouped by status. */
  getRoadmap(query?: RoadmapQuery): Promise<Roadmap>;
  /** GET /changelog: published entries, newest first. */
  getChangelog(query?: PageQuery): Promise<Changelog>;
  /** PUT /features/{id}/votes/{voterId}: idempotent, one vote per voter. */
  vote(featureId: string, voterId: string): Promise<VoteState>;
  /** DELETE /features/{id}/votes/{voterId}. */
  unvote(featureId: string, voterId: string): Promise<VoteState>;
  /** GET /features/{id}/comments, oldest first. */
  listComments(featureId: string, query?: PageQuery): Promise<CommentList>;
  /** POST /features/{id}/comments. */
  addComment(featureId: string, comment: NewComment): Promise<Comment>;
  /** GET /suggestions: public ideas like a title being typed (the board's search), with votes and status. */
  suggest(title: string, person?: WidgetPerson, limit?: number): Promise<Suggestions>;
  /** PUT (or, `on` false, DELETE) /me/votes/{id}: the identified person's vote. */
  voteAs(featureId: string, person: WidgetPerson, on?: boolean): Promise<VoteState>;
  /** GET /me/ideas: the identified person's ideas with their status. */
  myIdeas(person: WidgetPerson): Promise<MyIdeas>;
  /** POST /me/ideas: submit as the identified person. */
  submitAs(input: SubmitInput, person: WidgetPerson): Promise<CreatedFeature>;
  /** POST /features/{id}/attachments: a PNG, JPEG or WebP screenshot (at most 2 MB) for an item just filed. */
  attach(featureId: string, image: Blob): Promise<Attachment>;
  /** The transport underneath (base URL, rate-limit state). */
  readonly transport: Transport;
}

const seg = (value: string) => encodeURIComponent(value);

/** Creates a feature-request client. */
export function createFeatureReporter(options: FeatureReporterOptions): FeatureReporter {
  const { channel = 'sdk', metadata: baseMetadata, ...transportOptions } = options;
  const transport = createTransport(transportOptions);

  async function call<T>(method: string, path: string, init: Parameters<Transport['request']>[2] = {}): Promise<T> {
    return (await transport.request<T>(method, path, init)).data;
  }

  const personHeaders = (person: WidgetPerson = {}) => {
    const headers: Record<string, string> = {};
    if (person.token) headers['X-Signpost-User'] = person.token;
    if (person.visitorId) headers['X-Signpost-Visitor'] = person.visitorId;
    return headers;
  };

  function body(input: SubmitInput) {
    const metadata = baseMetadata || input.metadata ? { ...baseMetadata, ...input.metadata } : undefined;
    const body = {
      title: String(input.title ?? '').trim(),
      description: String(input.description ?? '').trim(),
      type: input.type ?? 'feature',
      channel,
      ...(input.contactEmail?.trim() ? { contactEmail: input.contactEmail.trim() } : {}),
      ...(metadata ? { metadata } : {}),
    };
    return body;
  }

  function submit(input: SubmitInput): Promise<CreatedFeature> {
    // Retried by the transport on network errors, 429 and 5xx. A submission whose answer was lost
    // may, rarely, be filed twice; the API has no idempotency key for POST /features.
    return call<CreatedFeature>('POST', '/features', { body: body(input) });
  }

  // The transport sends JSON only; the image goes as raw bytes, once (a retry could attach it twice).
  async function attach(featureId: string, image: Blob): Promise<Attachment> {
    const f = transportOptions.fetch ?? fetch;
    let response: Response;
    try {
      response = (await f(`${transport.baseUrl}/features/${seg(featureId)}/attachments`, {
        method: 'POST',
        headers: { 'X-API-Key': transportOptions.apiKey ?? '', 'Content-Type': image.type },
        body: image,
      })) as Response;
    } catch (error) {
      throw new SdkError('network_error', 'The attachment could not be sent', { cause: error });
    }
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) throw new ApiError(response.status, data);
    return data as Attachment;
  }

  return {
    transport,
    submit,
    submitFeature: (input) => submit({ ...input, type: 'feature' }),
    submitBug: (input) => submit({ ...input, type: 'bug' }),
    listFeatures: (query = {}) => call('GET', '/features', { query: { ...query } }),
    getFeature: (featureId) => call('GET', `/features/${seg(featureId)}`),
    getRoadmap: (query = {}) =>
      call('GET', '/roadmap', {
        query: { status: Array.isArray(query.status) ? query.status.join(',') : query.status, limit: query.limit },
      }),
    getChangelog: (query = {}) => call('GET', '/changelog', { query: { ...query } }),
    vote: (featureId, voterId) => call('PUT', `/features/${seg(featureId)}/votes/${seg(voterId)}`),
    unvote: (featureId, voterId) => call('DELETE', `/features/${seg(featureId)}/votes/${seg(voterId)}`),
    listComments: (featureId, query = {}) =>
      call('GET', `/features/${seg(featureId)}/comments`, { query: { ...query } }),
    addComment: (featureId, comment) => call('POST', `/features/${seg(featureId)}/comments`, { body: comment }),
    suggest: (title, person, limit) =>
      call('GET', '/suggestions', { query: { title, limit }, headers: personHeaders(person) }),
    voteAs: (featureId, person, on = true) =>
      call(on ? 'PUT' : 'DELETE', `/me/votes/${seg(featureId)}`, { headers: personHeaders(person) }),
    myIdeas: (person) => call('GET', '/me/ideas', { headers: personHeaders(person) }),
    submitAs: (input, person) => call('POST', '/me/ideas', { body: body(input), headers: personHeaders(person) }),
    attach,
  };
}
