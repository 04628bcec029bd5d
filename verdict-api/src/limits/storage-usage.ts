// Each account's storage usage as this process knows it, against its quota (storage-quota.ts).
// Read from the table once (one query per account), then kept: an upload reserves its rows and
// bytes before it writes anything, synchronously after the figures are in, so that concurrent
// uploads of one account cannot both pass a check that together they exceed; a stored upload's
// usage is recorded, a refused or failed one gives its reservation back.
//
// Several API processes sharing one clickhouse-server each see the others' uploads only when they
// read the table again: every REFRESH_MS when the account has no upload in flight, and when the
// UTC day changes. Between reads each process can let one account pass a limit by at most what
// that process accepts in the meantime.
import { quotaRefusal, type StorageQuota, type Usage, type UsageFigures, utcDay } from './storage-quota.js';

/** Where usage is kept: the account_usage table (accounts/account-usage.ts). */
export interface UsageStore {
  /** The account's sums: on `day`, and over all days. */
  load(accountId: string, day: string): Promise<UsageFigures>;
  /** Adds one accepted upload's usage on `day`. */
  record(accountId: string, day: string, usage: Usage): Promise<void>;
}

/** How long a figure read from the table is used before it is read again (other processes' uploads). */
export const REFRESH_MS = 60_000;

/** One upload's claim on its account's quota: recorded once its rows are stored, or given back. */
export interface Reservation {
  /** Records the usage in the table (the figures counted it already). */
  commit(): Promise<void>;
  /** Takes the usage back: nothing was stored (refused, failed, or a retry of a stored upload). */
  giveBack(): void;
}

interface Entry {
  figures: UsageFigures;
  loadedAt: number;
  /** Reservations neither recorded nor given back: while any, the figures are not read again. */
  open: number;
}

/** Every account's usage, judged against one quota. */
export class StorageQuotas {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();

  constructor(
    readonly quota: StorageQuota,
    private readonly store: UsageStore,
    private readonly now: () => number = Date.now,
    private readonly maxAccounts = 10_000,
  ) {}

  /** The account's usage today and retained, uploads in flight included. */
  async usage(accountId: string): Promise<UsageFigures> {
    const { figures } = await this.entry(accountId);
    return { day: figures.day, today: { ...figures.today }, retained: { ...figures.retained } };
  }

  /** Refuses (429 or 413) when the account has reached a limit already: asked before a body is read. */
  async refuseWhenReached(accountId: string): Promise<void> {
    const refusal = quotaRefusal(this.quota, (await this.entry(accountId)).figures, null, this.now());
    if (refusal) throw refusal;
  }

  /**
   * Reserves `upload` for the account, or refuses it (429, 413: nothing reserved). With `enforce`
   * false (the operator) it is counted and never refused.
   */
  async reserve(accountId: string, upload: Usage, enforce = true): Promise<Reservation> {
    const entry = await this.entry(accountId);
    // Synchronous from here to the reservation: no other upload of the account is judged between.
    const refusal = enforce ? quotaRefusal(this.quota, entry.figures, upload, this.now()) : null;
    if (refusal) throw refusal;
    const { figures } = entry;
    const day = figures.day;
    add(figures.today, upload, 1);
    add(figures.retained, upload, 1);
    entry.open++;
    let done = false;
    const close = () => {
      done = true;
      entry.open--;
    };
    return {
      commit: async () => {
        if (done) return;
        try {
          await this.store.record(accountId, day, upload);
        } finally {
          close();
        }
      },
      giveBack: () => {
        if (done) return;
        close();
        if (figures.day === day) add(figures.today, upload, -1);
        add(figures.retained, upload, -1);
      },
    };
  }

  private async entry(accountId: string): Promise<Entry> {
    const now = this.now();
    const day = utcDay(now);
    const entry = this.entries.get(accountId);
    if (entry && entry.open > 0 && entry.figures.day !== day) {
      // Uploads of yesterday still in flight: today starts at nothing, they stay in the retained sum.
      entry.figures.day = day;
      entry.figures.today = { rows: 0, bytes: 0 };
    }
    if (entry && (entry.open > 0 || (entry.figures.day === day && now - entry.loadedAt < REFRESH_MS))) return entry;
    const loading = this.loading.get(accountId) ?? this.load(accountId, day);
    return loading;
  }

  private load(accountId: string, day: string): Promise<Entry> {
    const loading = this.store
      .load(accountId, day)
      .then((figures) => {
        // An upload reserved on the old figures while this read ran keeps them (its count is in them).
        const current = this.entries.get(accountId);
        if (current && current.open > 0) return current;
        const entry: Entry = { figures, loadedAt: this.now(), open: 0 };
        this.remember(accountId, entry);
        return entry;
      })
      .finally(() => this.loading.delete(accountId));
    this.loading.set(accountId, loading);
    return loading;
  }

  private remember(accountId: string, entry: Entry): void {
    this.entries.delete(accountId);
    if (this.entries.size >= this.maxAccounts) {
      // The least recently loaded account with nothing in flight goes (it is read again when it comes back).
      for (const [id, e] of this.entries) {
        if (e.open === 0) {
          this.entries.delete(id);
          break;
        }
      }
    }
    this.entries.set(accountId, entry);
  }
}

function add(to: Usage, usage: Usage, sign: 1 | -1): void {
  to.rows += sign * usage.rows;
  to.bytes += sign * usage.bytes;
}

