import express, { Router } from 'express';
// Only the assets' folder: the package's main module evaluates 2 MB of browser bundles (~40 MB RSS, ~0.35 s).
import swaggerUiAssetsPath from 'swagger-ui-dist/absolute-path.js';

/**
 * An interactive reference of /v1/openapi.json at `<mount>/docs`, served from the swagger-ui-dist
 * package (works offline). Asset URLs are absolute: relative ones would resolve under `/docs/docs/`
 * when the page is asked for with a trailing slash, and the page would stay blank. Mount the router
 * at `/docs`, so that every other request passes it at the cost of one path match (ADR 0057).
 */
export function referencePage(specUrl: string, mountPath: string): Router {
  const assetsUrl = `${mountPath}/docs/assets`;
  const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Video Research Service API reference</title>
  <link rel="stylesheet" href="${assetsUrl}/swagger-ui.css" />
</head>
<body>
  <div id="reference" data-spec-url="${specUrl}"></div>
  <script src="${assetsUrl}/swagger-ui-bundle.js"></script>
  <script src="${mountPath}/docs/start.js"></script>
</body>
</html>`;
  // A file, not an inline script: the Content-Security-Policy allows scripts from our origin only (ADR 0081).
  const start = `const reference = document.getElementById('reference');
window.ui = SwaggerUIBundle({ url: reference.dataset.specUrl, dom_id: '#reference', deepLinking: true, persistAuthorization: true, validatorUrl: null });
`;
  const router = Router();
  router.get('/start.js', (_req, res) => {
    res.type('text/javascript').send(start);
  });
  router.use('/assets', express.static(swaggerUiAssetsPath(), { index: false, maxAge: '1h' }));
  // Express matches `/docs/` here too; the assets' absolute URLs load from either.
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
