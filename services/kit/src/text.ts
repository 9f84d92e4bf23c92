/**
 * Text from the public, made safe to keep and to put in mail. Line breaks arrive as CRLF, LF,
 * a bare CR or a Unicode separator; mail wants CRLF only (RFC 5321 §2.3.8), so a stored text
 * holds LF alone and the composer writes CRLF. Control characters have no business in a name
 * or a note and can split a header, so they go.
 */

// C0 and C1 controls and DEL; TAB and LF are dealt with separately.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f]/g;
// Every spelling of a line break: CRLF, CR, LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
const BREAKS = /\r\n|[\r\n\x85\u2028\u2029]/g;

/** Text of several lines (a message, notes): line breaks as LF, no other control character, trimmed. */
export function multiLine(s: string): string {
  return s.replace(BREAKS, '\n').replace(CONTROLS, '').trim();
}

/** Text of one line (a name, a company, a subject): breaks and tabs become a space, runs of spaces one. */
export function oneLine(s: string): string {
  return s.replace(BREAKS, ' ').replace(/\t/g, ' ').replace(CONTROLS, '').replace(/ {2,}/g, ' ').trim();
}
