const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe inside HTML or XML markup: in element content and in a quoted attribute
 * (feeds, TwiML, generated SVG, the head tags the gateway writes). `&#39;` is understood by
 * both HTML and XML parsers.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
