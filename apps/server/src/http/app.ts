import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { caughtError, replyError, sendError } from './errors.ts';
import { clientErrorHandler, connectHandler, notPercentEncoding, rejectedBeforeRouting } from './protocol.ts';
import { isMediaType } from './media-type.ts';
import { recordRequest } from './respond.ts';
import { registerCommandRoutes } from './commands/get.ts';
import { commandEndpoint } from './commands/post.ts';
import { registerReadRoutes } from './read.ts';
import { registerEventRoutes, streamEndpoint } from './events.ts';
import { connectorRoutes } from './connector.ts';
import { dispatchEndpoint } from './dispatch.ts';
import { registerDocsRoutes } from './docs.ts';
import { registerWebhookRoutes } from './webhooks.ts';
import { answeringCutUploads, registerTransferRoutes } from './transfers.ts';
import { adminRoutes } from './admin/routes.ts';
import { registerConsoleRoutes } from './console.ts';

/** The HTTP API. Thin: parse, call the domain modules, map their results to responses. */
export function buildApp(services: Services): FastifyInstance {
  const { ids, log } = services;
  const commands = commandEndpoint(services);
  const polls = dispatchEndpoint(services);
  const streams = streamEndpoint(services);
  const rejected = rejectedBeforeRouting(ids);
  const app = Fastify({
    serverFactory: (router) => {
      // Host is checked in rejectedBeforeRouting, so the 400 has the documented body.
      const server = createServer({ requireHostHeader: false }, (req, res) => {
        if (rejected(req, res)) return;
        if (!commands(req, res) && !polls.handle(req, res) && !streams.handle(req, res)) router(req, res);
      });
      server.on('connect', connectHandler(log, ids));
      // Fastify's own keep-alive default: clients reuse idle connections well past Node's 5 s.
      server.keepAliveTimeout = 72_000;
      return server;
    },
    loggerInstance: services.log as FastifyBaseLogger,
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => ids.next(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Long ids reach their routes and get the route's own answer (400 or 404), not a 414.
    routerOptions: { maxParamLength: 16_384 },
    clientErrorHandler: answeringCutUploads(clientErrorHandler(log, ids)),
    frameworkErrors: (error, _request, reply) => replyError(reply, notPercentEncoding(error.code)),
  });
  // Shutting down ends the open streams, and answers open polls at once, empty, waiting for those
  // answers to be sent, so their connections are idle (and closed) when the server closes.
  app.addHook('preClose', () => {
    streams.close();
    return polls.close();
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
    recordRequest(request.log, services.metrics, request.routeOptions.url ?? 'unmatched', {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      error: reply.errorCode,
      accountId: request.accountId,
      commandId: request.commandId,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    });
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `no route for ${request.method} ${request.url}`));
  app.setErrorHandler((error, request, reply) => {
    const answer = caughtError(error);
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return replyError(reply, answer);
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
  void app.register(connectorRoutes(services));
  registerDocsRoutes(app);
  registerWebhookRoutes(app, services, services.store.webhooks);
  registerTransferRoutes(app, services);
  void app.register(adminRoutes(services));
  registerConsoleRoutes(app);
  return app;
}
