/** A piece of HTML that `html` inserts as it is (anything else is escaped). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escape = (value: unknown): string =>
  value instanceof SafeHtml
    ? value.value
    : Array.isArray(value)
      ? value.map(escape).join('')
      : String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A template tag for HTML: every interpolated value is escaped unless it is itself `html`, and
 * arrays are joined, so pages cannot be broken by a value from the API.
 *
 * @example
 * html`<p>${'<b>'}</p>`.value; // '<p>&lt;b&gt;</p>'
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(
    strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ''), ''),
  );
}

/**
 * A whole page in the site's one simple layout.
 *
 * @example
 * layout('Welcome', html`<p>Hello</p>`).value.startsWith('<!doctype html>'); // true
 */
export function layout(title: string, body: SafeHtml, head: SafeHtml = html``): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Example members' area</title>
        ${head}
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 44rem;
            margin: 2rem auto;
            padding: 0 1rem;
          }
          iframe {
            width: 100%;
            height: 760px;
            border: 1px solid #ccc;
            border-radius: 8px;
          }
          button {
            font: inherit;
            padding: 0.5rem 1rem;
            margin-right: 0.5rem;
          }
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html>`;
}
