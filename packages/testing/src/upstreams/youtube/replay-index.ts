import { applyFieldsMask } from './fields-mask';
import type { Recording } from './recordings';
import { signatureOf, type RequestKey } from './request-key';

export interface ReplayAnswer {
  recording: Recording;
  status: number;
  contentType: string;
  body: string;
  /** Set when an unmasked recording answered a masked request through the projection. */
  projectedThrough?: string;
}

/**
 * Recordings grouped by what they answer. Within a group (equal endpoint, client, mask and key
 * fields) the most recently recorded one wins, unless a test selected another one of that group.
 * Variant recordings never win by default: they answer only while selected, one by one or all of
 * a variant's recordings at once (`selectVariant`), so a page "changes" on a test's command.
 */
export class ReplayIndex {
  readonly #groups = new Map<string, Recording[]>();
  readonly #byId = new Map<string, Recording>();
  readonly #selected = new Map<string, Recording>();

  constructor(recordings: Recording[]) {
    for (const recording of recordings) {
      this.#byId.set(recording.id, recording);
      const group = this.#groups.get(recording.signature) ?? [];
      group.push(recording);
      this.#groups.set(recording.signature, group);
    }
    // Newest first, variants last; ties keep load order (sorted paths) so the choice never depends on the OS.
    for (const group of this.#groups.values())
      group.sort((a, b) => Number(!!a.variant) - Number(!!b.variant) || b.recordedAt - a.recordedAt);
  }

  /** Selects every recording of `variant`; false when no recording has that variant name. */
  selectVariant(variant: string): boolean {
    const recordings = this.all().filter((recording) => recording.variant === variant);
    for (const recording of recordings) this.#selected.set(recording.signature, recording);
    return recordings.length > 0;
  }

  /** Undoes `selectVariant`: each group it switched answers with its default again. */
  unselectVariant(variant: string): boolean {
    const recordings = this.all().filter((recording) => recording.variant === variant);
    for (const recording of recordings) this.unselect(recording.id);
    return recordings.length > 0;
  }

  #byDefault(signature: string): Recording | undefined {
    const first = this.#groups.get(signature)?.[0];
    return first?.variant ? undefined : first;
  }

  all(): Recording[] {
    return [...this.#byId.values()];
  }

  /** Makes `id` win its group until `clearSelections`; returns false for an unknown id. */
  select(id: string): boolean {
    const recording = this.#byId.get(id);
    if (!recording) return false;
    this.#selected.set(recording.signature, recording);
    return true;
  }

  /**
   * Gives `id`'s group back to its default (the newest recording), if `id` is what was selected
   * there: a test sharing the upstream with others undoes its own selection without a reset.
   */
  unselect(id: string): boolean {
    const recording = this.#byId.get(id);
    if (!recording) return false;
    if (this.#selected.get(recording.signature) === recording) this.#selected.delete(recording.signature);
    return true;
  }

  clearSelections(): void {
    this.#selected.clear();
  }

  /**
   * A selection wins first (an exact one, else a selected unmasked recording projected through the
   * mask), then the newest exact recording, then the newest unmasked one projected.
   */
  find(key: RequestKey): ReplayAnswer | undefined {
    const exactSignature = signatureOf(key);
    const unmaskedSignature = key.fields ? signatureOf(key, null) : undefined;
    const exactSelected = this.#selected.get(exactSignature);
    if (exactSelected) return this.#answer(exactSelected);
    const unmaskedSelected = unmaskedSignature ? this.#selected.get(unmaskedSignature) : undefined;
    if (unmaskedSelected) return this.#projected(unmaskedSelected, key.fields as string);
    const exact = this.#byDefault(exactSignature);
    if (exact) return this.#answer(exact);
    const unmasked = unmaskedSignature ? this.#byDefault(unmaskedSignature) : undefined;
    return unmasked ? this.#projected(unmasked, key.fields as string) : undefined;
  }

  #answer(recording: Recording): ReplayAnswer {
    return { recording, status: recording.status, contentType: recording.contentType, body: recording.body };
  }

  #projected(recording: Recording, fields: string): ReplayAnswer | undefined {
    if (recording.status !== 200) return undefined;
    const projected = applyFieldsMask(JSON.parse(recording.body), fields);
    return { recording, status: 200, contentType: recording.contentType, body: JSON.stringify(projected), projectedThrough: fields };
  }
}
