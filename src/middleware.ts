// Every page's HTML after it is rendered (at build time for this static
// site, on each request in `astro dev`): the project's name in headings set
// in the code font (src/layouts/name.ts). Endpoints (JSON) pass unchanged.
import { defineMiddleware } from 'astro:middleware';
import { markName } from './layouts/name.ts';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!(response.headers.get('content-type') ?? '').includes('text/html')) return response;
  const html = await response.text();
  return new Response(markName(html), { status: response.status, statusText: response.statusText, headers: response.headers });
});
