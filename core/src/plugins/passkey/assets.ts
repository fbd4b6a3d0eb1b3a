/**
 * Browser-side passkey support for the default pages: the UMD bundle of
 * `@simplewebauthn/browser` (served at `GET {basePath}/passkey/browser.js`)
 * and the small script that drives the register/authenticate ceremonies.
 * @internal
 * @module
 */
let bundle: Promise<string> | undefined;

/** Reads the `@simplewebauthn/browser` UMD bundle once (Node). */
export function simpleWebAuthnBundle(): Promise<string> {
  bundle ??= (async () => {
    const [{ createRequire }, { readFile }, path] = await Promise.all([
      import('node:module'),
      import('node:fs/promises'),
      import('node:path'),
    ]);
    const require = createRequire(import.meta.url);
    let dir = path.dirname(require.resolve('@simplewebauthn/browser'));
    // Walk up from the entry file to the package root.
    for (let i = 0; i < 5 && !dir.endsWith(`${path.sep}browser`); i++) dir = path.dirname(dir);
    return readFile(path.join(dir, 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
  })().catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

/**
 * The inline script of the default pages. Buttons with
 * `data-passkey="authenticate"` or `data-passkey="register"` run the
 * ceremony: options → `SimpleWebAuthnBrowser.start*` → verify, then follow
 * the returned URL (or reload). The status line (`#passkey-status`) shows `status`, in the page's language; a
 * refusal shows `status.failed` (the server's English message stays in the JSON answer).
 */
export function passkeyScript(
  basePath: string,
  csrfToken: string,
  callbackUrl: string,
  status: { waiting: string; done: string; failed: string },
): string {
  const cfg = JSON.stringify({ basePath, csrfToken, callbackUrl, status }).replace(/</g, '\\u003c');
  return `<script src="${basePath}/passkey/browser.js"></script><script>(function(){var c=${cfg};
function post(p,b){return fetch(c.basePath+p,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json',accept:'application/json'},body:JSON.stringify(Object.assign({csrfToken:c.csrfToken,callbackUrl:c.callbackUrl},b))}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error(c.status.failed);return j})})}
function say(t){var s=document.getElementById('passkey-status');if(s)s.textContent=t}
document.querySelectorAll('[data-passkey]').forEach(function(btn){btn.addEventListener('click',function(ev){ev.preventDefault();var kind=btn.getAttribute('data-passkey');var W=window.SimpleWebAuthnBrowser;say(c.status.waiting);
var nameInput=document.getElementById('passkey-name');var extra=kind==='register'&&nameInput?{name:nameInput.value}:{};
post('/passkey/'+kind+'/options',{}).then(function(o){return kind==='register'?W.startRegistration({optionsJSON:o}):W.startAuthentication({optionsJSON:o})})
.then(function(r){return post('/passkey/'+kind+'/verify',Object.assign({response:JSON.stringify(r)},extra))})
.then(function(j){say(c.status.done);if(j.url)location.href=j.url;else location.reload()}).catch(function(){say(c.status.failed)})})})})();</script>`;
}
