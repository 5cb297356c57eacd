import { Router } from 'express';
import express from 'express';
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
  <div id="reference"></div>
  <script src="${assetsUrl}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#reference', deepLinking: true, persistAuthorization: true });
  </script>
</body>
</html>`;
  const router = Router();
  router.use('/assets', express.static(swaggerUiAssetsPath(), { index: false, maxAge: '1h' }));
  // Express matches `/docs/` here too; the assets' absolute URLs load from either.
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
