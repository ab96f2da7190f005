import { Suspense, useEffect } from 'react';
import { pageTexts } from '../config/pages';
import { type PageName, type PageRequest, pageNames, paths, renamedAddress, replaceAddress, requestedPage } from '../config/paths';
import { PageLoadFailure } from './page-load-failure';
import { pageComponents } from './pages';

/**
 * App is the labs' shell: a header that switches page by link (so each has its own URL) and the
 * page the address names, its code loaded when it opens. The browser labs run on the WebAssembly
 * codec; the experiment console, the Studies page and the sign-in on the backend.
 */
export function App() {
  const request = requestedPage();
  const current = 'page' in request ? request.page : null;
  return (
    <>
      <a className="skip-link" href="#lab">
        Skip to the lab
      </a>
      <header className="app-header">
        <p className="brand">
          satlab <span>labs</span>
        </p>
        <nav aria-label="Labs">
          <ul>
            {pageNames.map((name) => (
              <li key={name}>
                <a href={paths.page(name)} aria-current={name === current ? 'page' : undefined}>
                  {pageTexts[name].title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="lab">{'page' in request ? <Page request={request} /> : <UnknownPage name={request.unknown} />}</main>
    </>
  );
}

/** Page is one page under its title, its code loaded on first show. */
function Page({ request }: { request: Extract<PageRequest, { page: PageName }> }) {
  const { page, formerName } = request;
  // A link with a former name opens its page, and the address then says the name of now.
  useEffect(() => {
    if (formerName) replaceAddress(renamedAddress(page));
  }, [page, formerName]);
  const Component = pageComponents[page];
  return (
    <>
      <h1>{pageTexts[page].title}</h1>
      <p className="lede">{pageTexts[page].blurb}</p>
      <PageLoadFailure page={pageTexts[page].title}>
        <Suspense fallback={<p role="status">Loading the page…</p>}>
          <Component />
        </Suspense>
      </PageLoadFailure>
    </>
  );
}

/** UnknownPage says that the address names no page, rather than showing some other one. */
function UnknownPage({ name }: { name: string }) {
  return (
    <>
      <h1>No such page</h1>
      <p className="error" role="alert">
        This address asks for the page “{name}” (?lab={name}), which satlab does not have.
      </p>
      <p>The pages are:</p>
      <ul>
        {pageNames.map((page) => (
          <li key={page}>
            <a href={paths.page(page)}>{pageTexts[page].title}</a> (?lab={page})
          </li>
        ))}
      </ul>
    </>
  );
}
