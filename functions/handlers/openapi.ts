import { httpHandler } from '../http/handler.js';
import { json } from '../http/respond.js';
import { openApiDocument } from '../openapi.js';

/** Built once per container: the description only changes with a deployment. */
const document = openApiDocument();

/** GET /openapi.json */
export const handler = httpHandler('openapi', async () => json(200, document));
