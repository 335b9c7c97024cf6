/**
 * The change marker of a PostgreSQL database shared by several processes (the counterpart of
 * SQLite's `PRAGMA data_version`, see sqlite.ts): a number that moves whenever something a memo
 * may hold was committed, by this process or another.
 *
 * - Commits of this process move it at once (`moved()`, called by postgres.ts after COMMIT).
 * - Commits of other processes arrive as notifications on CHANGE_CHANNEL, sent inside their
 *   transaction (so only on commit, and only once the data is visible to new statements), on
 *   one connection of its own that does nothing but LISTEN. Each one moves the marker.
 * - While that connection is not listening (before the first LISTEN, after it was lost, while
 *   reconnecting) a notification may be missed, so the marker moves on every read: nothing
 *   memoised matches and every read goes to the database. When LISTEN succeeds again the marker
 *   moves once more (what was sent meanwhile is lost), and memoising resumes from there.
 *
 * A connection that fails loudly (the server closed it, a reset) is noticed at once. One that
 * dies silently (a network partition) is caught by the heartbeat: a `SELECT 1` every
 * HEARTBEAT_MS that must answer within HEARTBEAT_TIMEOUT_MS, helped by TCP keepalive.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { pgDriver } from './pg-driver.ts';

export const CHANGE_CHANNEL = 'signpost_changes';
/**
 * The listener's application_name in pg_stat_activity, with the process id after the slash
 * (operators and tests find a process's listener by this).
 */
export const LISTENER_APPLICATION_NAME = 'signpost-change-listener';

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 5_000;
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;
const CONNECT_TIMEOUT_MS = 5_000;

export class ChangeListener {
  /** This process's payload on its own notifications, which it then skips (it moved already). */
  readonly selfToken = randomBytes(8).toString('hex');
  private readonly connectionString: string;
  private version = 0;
  private listening = false;
  private started = false;
  private closed = false;
  private client: pg.Client | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(connectionString: string) {
    this.connectionString = connectionString;
  }

  /**
   * The current marker. Starts listening on first use (so one-off tools that never memoise open
   * no extra connection); until LISTEN is in place, and whenever it is lost, each call returns
   * a new number, so no memoised entry is ever valid then.
   */
  marker(): number {
    if (!this.started) this.start();
    return this.listening ? this.version : ++this.version;
  }

  /** Something was committed that memos may hold. */
  moved(): void {
    this.version++;
  }

  /** Whether notifications are being received now (for tests and health reporting). */
  get isListening(): boolean {
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private start(): void {
    if (this.closed) return;
    this.started = true;
    this.heartbeat = setInterval(() => void this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new (pgDriver().Client)({
      connectionString: this.connectionString,
      application_name: `${LISTENER_APPLICATION_NAME}/${process.pid}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.payload !== this.selfToken) this.version++;
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch {
      if (this.client === client) this.lost(client);
      else client.end().catch(() => {});
      return;
    }
    if (this.client !== client) {
      // Lost or closed while connecting: this connection is nobody's now.
      client.end().catch(() => {});
      return;
    }
    // Whatever was committed before this point is read afresh from now on: a new marker.
    this.version++;
    this.listening = true;
    this.retryMs = FIRST_RETRY_MS;
  }

  /** The listening connection failed: read through until a new one listens. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    this.version++;
    client.end().catch(() => {});
    if (this.closed) return;
    // Backoff with jitter, so processes that lost the database together do not return together.
    const delay = this.retryMs * (0.5 + Math.random() / 2);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private async checkAlive(): Promise<void> {
    const client = this.client;
    if (!client || !this.listening) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('heartbeat timed out')), HEARTBEAT_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
    } catch {
      this.lost(client);
    } finally {
      clearTimeout(timer);
    }
  }
}
