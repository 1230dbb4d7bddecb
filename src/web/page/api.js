// The server's JSON API (docs/web.md): every rule, move and score comes from here. One helper makes every request:
// a GET or a POST of JSON, its answer read as JSON, as text, or as a stream of Server-Sent Events; a refusal
// becomes an Error with the server's own message.

async function refusal(response) {
  let body = null;
  try { body = JSON.parse(await response.text()); } catch { /* not JSON: the status says it */ }
  return new Error(body && body.error ? body.error : `the server answered ${response.status}`);
}

// `path` asked with `body` (a GET without one), the answer read `as` 'json', 'text' or 'stream' (then each event
// goes to `onEvent(name, data)` until the stream ends or `signal` aborts).
export async function request(path, { body, signal, as = 'json', onEvent } = {}) {
  const response = await fetch(path, body === undefined ? { signal } : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal,
  });
  if (!response.ok) throw await refusal(response);
  if (as === 'text') return response.text();
  if (as === 'json') return response.json();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return undefined;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message', data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

export const get = (path) => request(path);
export const post = (path, body, signal) => request(path, { body, signal });
export const stream = (path, body, onEvent, signal) => request(path, { body, signal, as: 'stream', onEvent });
