/**
 * Masking text that arrives in pieces. A model streams its answer a few characters at a
 * time, so a secret it repeats is split across deltas, and masking each delta on its own
 * lets every piece through. A `MaskedTextStream` masks what it was given so far as one text
 * and holds back its end while that end could still become a secret (it is the beginning of
 * one): the next piece either completes the secret, which is then masked whole, or shows
 * it was not one, and the held text goes out with it. `flush()` gives back what is held
 * when the text ends (or something else is printed between).
 */
export class MaskedTextStream {
  readonly #mask: (text: string) => string;
  readonly #secrets: () => Iterable<string>;
  #held = "";

  /**
   * `mask` replaces every whole secret in a text; `secrets` lists the values it replaces
   * (read at each piece, so a secret registered later is held back too).
   */
  constructor(mask: (text: string) => string, secrets: () => Iterable<string>) {
    this.#mask = mask;
    this.#secrets = secrets;
  }

  /** The part of the text so far that can go out now, masked; the rest is held. */
  push(piece: string): string {
    const text = this.#mask(this.#held + piece);
    const held = heldLength(text, this.#secrets());
    this.#held = text.slice(text.length - held);
    return text.slice(0, text.length - held);
  }

  /** What is held: the text ended, so it is no secret (whole secrets were masked already). */
  flush(): string {
    const held = this.#held;
    this.#held = "";
    return held;
  }
}

/**
 * The length of the longest end of `text` that is the beginning (not the whole) of a
 * secret, in any case (`secrets` are lower-cased spellings).
 */
function heldLength(text: string, secrets: Iterable<string>): number {
  let longest = 0;
  for (const secret of secrets) {
    const first = secret[0];
    if (first === undefined) continue;
    // Earliest start first: the first match is this secret's longest.
    for (let start = Math.max(0, text.length - secret.length + 1); start < text.length; start++) {
      if (text.length - start <= longest) break;
      if (text[start]!.toLowerCase() === first && secret.startsWith(text.slice(start).toLowerCase())) {
        longest = text.length - start;
        break;
      }
    }
  }
  return longest;
}
