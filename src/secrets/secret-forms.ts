/**
 * The spellings a secret takes on its way back to hookwise. A server that echoes a token
 * may quote it as sent, percent-encoded (it was in a URL or a form), JSON-escaped (it sits
 * in a JSON string), upper- or lower-cased, or base64-encoded (an `Authorization: Basic`
 * header, a JWT's payload, a data URL). Case is not listed: every spelling is matched
 * without regard to case.
 *
 * Base64 is encoded in groups of three bytes, so the secret's encoding inside a larger
 * encoded text depends on where it starts: each of the three offsets is listed, cut to the
 * characters that depend on the secret alone, in the standard and the URL alphabet.
 */

/** Percent-encoding as `encodeURIComponent` does it, and as forms do it (a space is `+`). */
function percentForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  // `encodeURIComponent` leaves `!'()*` alone; some encoders do not.
  const strict = encoded.replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return [encoded, strict, encoded.replaceAll("%20", "+")];
}

/** Inside a JSON string: `"` and `\` escaped, control characters as `\n` or `\u00XX`, and `/` as `\/` by some encoders. */
function jsonForms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return [escaped, escaped.replaceAll("/", "\\/"), JSON.stringify(escaped).slice(1, -1)];
}

/** The part of the secret's base64 encoding that is the same wherever in a larger text it starts. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString("base64");
    // Characters before the secret's first whole group hold bits of the padding; those
    // after its last whole group, of whatever follows it.
    const start = offset === 0 ? 0 : 4;
    const whole = Math.floor(padded.length / 3) * 4;
    const core = encoded.slice(start, whole);
    if (core.length >= 4) forms.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  // The whole secret encoded on its own, padding included.
  const alone = bytes.toString("base64");
  forms.push(alone, bytes.toString("base64url"));
  return forms;
}

/** Every spelling of `secret` to mask, longest first, without repeats. */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, ...percentForms(secret), ...jsonForms(secret), ...base64Forms(secret)]);
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}
