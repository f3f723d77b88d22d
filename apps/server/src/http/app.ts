import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { newId } from '../clock.ts';
import { caughtError, sendError } from './errors.ts';
import { clientErrorHandler, connectHandler, isMediaType, rejectedBeforeRouting } from './protocol.ts';
import { registerCommandRoutes } from './commands.ts';
import { commandEndpoint } from './command-endpoint.ts';
import { registerReadRoutes } from './read.ts';
import { registerEventRoutes } from './events.ts';
import { registerConnectorRoutes } from './connector.ts';
import { registerWebhookRoutes } from './webhooks.ts';

/** The HTTP API. Thin: parse, call the domain modules, map their results to responses. */
export function buildApp(services: Services): FastifyInstance {
  const commands = commandEndpoint(services);
  const app = Fastify({
    serverFactory: (router) => {
      // Host is checked in rejectedBeforeRouting, so the 400 has the documented body.
      const server = createServer({ requireHostHeader: false }, (req, res) => {
        if (rejectedBeforeRouting(req, res)) return;
        if (!commands(req, res)) router(req, res);
      });
      server.on('connect', connectHandler(services.log));
      // Fastify's own keep-alive default: clients reuse idle connections well past Node's 5 s.
      server.keepAliveTimeout = 72_000;
      return server;
    },
    loggerInstance: services.log as FastifyBaseLogger,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Long ids reach their routes and get the route's own answer (400 or 404), not a 414.
    routerOptions: { maxParamLength: 16_384 },
    clientErrorHandler: clientErrorHandler(services.log),
    frameworkErrors: (error, _request, reply) => sendError(reply, 400, 'bad_request', `the path is not valid percent-encoding (${error.code})`),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.decorateRequest('accountId', undefined);
  app.decorateRequest('credentialId', undefined);
  app.decorateRequest('commandId', undefined);
  app.decorateReply('errorCode', undefined);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No route here reads a typed body, so a malformed Content-Type is treated as absent.
    const type = request.headers['content-type'];
    if (type !== undefined && !isMediaType(type)) delete request.raw.headers['content-type'];
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.requests.inc({ method: request.method, route, status: reply.statusCode, code: reply.errorCode ?? '' });
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        error: reply.errorCode,
        accountId: request.accountId,
        commandId: request.commandId,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, 'not_found', `no route for ${request.method} ${request.url}`));
  app.setErrorHandler((error, request, reply) => {
    const answer = caughtError(error as { statusCode?: number; code?: string });
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, answer.status, answer.error, answer.message);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await services.store.listLeases();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
  app.get('/metrics', async (_request, reply) => {
    return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });

  registerCommandRoutes(app, services);
  registerReadRoutes(app, services);
  registerEventRoutes(app, services);
  registerConnectorRoutes(app, services);
  if (services.store.webhooks) registerWebhookRoutes(app, services, services.store.webhooks);
  return app;
}
