/** A URL inside a text: a scheme, then anything up to a space or a quote. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi;

/**
 * A text as a remote caller may see it: each URL in it cut to its scheme, host and path (no user
 * name or password, query or fragment, which may carry secrets such as `?api_key=`).
 */
export function redactForCaller(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    if (!URL.canParse(found)) return '(a URL)';
    const url = new URL(found);
    return `${url.protocol}//${url.host}${url.pathname}`;
  });
}

/**
 * A text as the gateway's log and `check` show it to the operator: each URL keeps its shape (which
 * parameters, whether there is a user) with the values replaced by `***`.
 */
export function redactForOperator(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    if (!URL.canParse(found)) return found.replace(/\/\/[^/@]*@/, '//***@');
    const url = new URL(found);
    const user = url.username || url.password ? '***@' : '';
    const query = [...url.searchParams.keys()].map((key) => `${key}=***`).join('&');
    return `${url.protocol}//${user}${url.host}${url.pathname}${query ? `?${query}` : ''}`;
  });
}
