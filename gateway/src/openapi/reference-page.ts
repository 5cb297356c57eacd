import { Router } from 'express';
import express from 'express';
import swaggerUiDist from 'swagger-ui-dist';

/** An interactive reference of /v1/openapi.json, served from the swagger-ui-dist package (works offline). */
export function referencePage(specUrl: string): Router {
  const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Video Research Service API reference</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="reference"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#reference', deepLinking: true, persistAuthorization: true });
  </script>
</body>
</html>`;
  const router = Router();
  router.use('/docs/assets', express.static(swaggerUiDist.getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
