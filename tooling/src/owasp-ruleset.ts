// The OWASP API Security Top 10 (2023) ruleset for Spectral, as the spec lint runs it. Every rule
// is on (`all`) except those switched off below, each with the reason it does not apply.
import spectralCore from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import type { RulesetDefinition } from '@stoplight/spectral-core';

const { createRulesetFunction } = spectralCore;
// The package's typings describe its CommonJS module; its ESM default export is the ruleset.
const owaspRuleset = owasp as unknown as RulesetDefinition;

/** A string in a request body is bounded: maxLength, enum, const, or a fixed-size format. */
const boundedString = createRulesetFunction<Record<string, unknown>, null>({ input: { type: 'object' }, options: null }, (schema) => {
  if ('maxLength' in schema || 'enum' in schema || 'const' in schema || schema.format === 'uuid' || schema.format === 'date-time') return [];
  return [{ message: 'A request string the service reads needs maxLength (or enum, const, or a fixed-size format such as uuid).' }];
});

const off = 'off' as const;

/** The public API (specs/openapi/switchboard.yaml). */
export const publicApiRuleset: RulesetDefinition = {
  extends: [[owaspRuleset, 'all']],
  rules: {
    // The one server listed is a local run on loopback; a deployment terminates TLS in front of it.
    'owasp:api8:2023-no-server-http': off,
    // Not a browser API: no route answers CORS, so API keys never sit in a web page.
    'owasp:api8:2023-define-cors-origin': off,
    // Response strings are written by the server; what a client sends is held by the rule below.
    'owasp:api4:2023-string-limit': off,
    // Free text (message text, names, file names) has no format; ids and addresses declare theirs.
    'owasp:api4:2023-string-restricted': off,
    'switchboard:request-string-limit': {
      description: 'Every string a client sends in a body has a bound (OWASP API4, for the request side).',
      severity: 'error',
      given: "$.paths[*][post,put,patch].requestBody.content[*].schema..[?(@.type === 'string')]",
      then: { function: boundedString },
    },
  },
  overrides: [
    {
      // Answered before any limit counts the request (authentication, method, protocol errors,
      // an unknown command type), so these carry no RateLimit headers, by design.
      files: [
        '../../specs/openapi/switchboard.yaml#/components/responses/Unauthenticated',
        '../../specs/openapi/switchboard.yaml#/components/responses/MethodNotAllowed',
        '../../specs/openapi/switchboard.yaml#/components/responses/BadRequest',
        '../../specs/openapi/switchboard.yaml#/components/responses/RequestTimeout',
        '../../specs/openapi/switchboard.yaml#/components/responses/HeadersTooLarge',
        '../../specs/openapi/switchboard.yaml#/paths/~1v1~1commands~1%7BcommandId%7D/post/responses/404',
      ],
      rules: { 'owasp:api4:2023-rate-limit': off },
    },
  ],
};

/** The connector protocol (specs/openapi/connector.yaml): spoken by our own hosts, one per lease. */
export const connectorRuleset: RulesetDefinition = {
  extends: [[owaspRuleset, 'all']],
  rules: {
    // As on the public API: a local run on loopback; TLS is the deployment's.
    'owasp:api8:2023-no-server-http': off,
    // As on the public API: no browser ever calls it.
    'owasp:api8:2023-define-cors-origin': off,
    // A host is one process per account fenced by its lease epoch, and its dispatch long-poll is
    // its heartbeat: no request-rate limit; failed authentication is limited (429, declared).
    'owasp:api4:2023-rate-limit': off,
    // Bodies come from a holder of a connector key, bounded by each route's body limit (1 MiB).
    'owasp:api4:2023-string-limit': off,
    // As on the public API: platform text, names and file names have no format.
    'owasp:api4:2023-string-restricted': off,
  },
};

export const adminRuleset: RulesetDefinition = {
  extends: [[owaspRuleset, 'all']],
  rules: {
    // As on the public API: a local run on loopback; TLS is the deployment's.
    'owasp:api8:2023-no-server-http': off,
    // The console is served from the same origin; no other origin is allowed (no CORS headers).
    'owasp:api8:2023-define-cors-origin': off,
    // Operators are few and trusted; failed authentication is limited (429, declared).
    'owasp:api4:2023-rate-limit': off,
    // Bodies are small objects bounded by the route's body limit (16 KiB).
    'owasp:api4:2023-string-limit': off,
    // As on the public API: names, labels and platform text have no format.
    'owasp:api4:2023-string-restricted': off,
  },
};
