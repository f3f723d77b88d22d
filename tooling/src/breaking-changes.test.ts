import { describe, expect, it } from 'vitest';
import { bundle, majorBumps, openApiBreakingChanges, streamAsOpenApi } from './breaking-changes.ts';
import { readYaml, specs, type JsonObject } from './specs.ts';

const api = readYaml(specs.api);
const schemas = (doc: JsonObject) => (doc.components as JsonObject).schemas as Record<string, JsonObject & { properties: Record<string, JsonObject>; required: string[]; enum: string[] }>;
const changed = (edit: (s: ReturnType<typeof schemas>) => void, base: JsonObject = api) => {
  const after = structuredClone(base);
  edit(schemas(after));
  return after;
};

describe('openApiBreakingChanges', () => {
  it('finds nothing between a spec and itself', () => {
    expect(openApiBreakingChanges(api, structuredClone(api))).toEqual([]);
  });

  it('a media range (*/*) is no change against itself, but removing it still breaks', () => {
    const after = structuredClone(api);
    const content = (((after.paths as JsonObject)['/v1/attachments/{attachmentId}'] as JsonObject).get as any).responses['200'].content;
    expect(content['*/*']).toBeDefined();
    delete content['*/*'];
    expect(openApiBreakingChanges(api, after).map((c) => c.where)).toContain('GET /v1/attachments/{attachmentId} 200 response');
  });

  it('flags a field removed from a response, once per operation that returns it', () => {
    const after = changed((s) => {
      delete s.Acknowledgement!.properties.disposition;
      s.Acknowledgement!.required = ['commandId', 'status'];
    });
    const changes = openApiBreakingChanges(api, after);
    expect(changes).toContainEqual({ where: 'POST /v1/commands/message.send 202 response', description: '[Removed] property `disposition`' });
    expect(new Set(changes.map((c) => c.where)).size).toBe(7);
  });

  it('flags a new required field in a request', () => {
    const after = changed((s) => {
      s.ReactionTapbackPayload!.properties.reason = { type: 'string' };
      s.ReactionTapbackPayload!.required.push('reason');
    });
    expect(openApiBreakingChanges(api, after)).toContainEqual({ where: 'POST /v1/commands/reaction.tapback request body', description: '[Added] required status to `payload.reason`' });
  });

  it('flags an enum narrowed in a request', () => {
    const after = changed((s) => {
      s.ScreenEffect!.enum = s.ScreenEffect!.enum.filter((e) => e !== 'lasers');
    });
    const changes = openApiBreakingChanges(api, after);
    expect(changes.map((c) => c.where)).toContain('POST /v1/commands/message.send request body');
    expect(changes.every((c) => c.description.includes('possible values'))).toBe(true);
  });

  it('flags an error code removed from the catalog, which no operation references', () => {
    const after = changed((s) => {
      s.ErrorCode!.oneOf = (s.ErrorCode!.oneOf as JsonObject[]).filter((c) => c.const !== 'body_too_deep');
    });
    expect(openApiBreakingChanges(api, after).map((c) => c.where)).toEqual(['components.schemas.ErrorCode']);
  });

  it('passes additive changes: an optional request field, a new response field, a wider request enum', () => {
    const after = changed((s) => {
      s.RichTextPayload!.properties.note = { type: 'string' };
      s.Conversation!.properties.archived = { type: 'boolean' };
      s.Tapback!.enum.push('wink');
    });
    expect(openApiBreakingChanges(api, after)).toEqual([]);
  });
});

describe('the response stream (AsyncAPI) is judged as responses', () => {
  const stream = readYaml(specs.events);

  it('flags a field removed from an event', () => {
    const after = changed((s) => {
      delete s.MessageReceived!.properties.text;
      s.MessageReceived!.required = s.MessageReceived!.required.filter((f) => f !== 'text');
    }, stream);
    expect(openApiBreakingChanges(streamAsOpenApi(stream), streamAsOpenApi(after)).map((c) => c.where)).toContain('GET /stream/message.received 200 response');
  });

  it('passes a new optional field on an event', () => {
    const after = changed((s) => {
      s.MessageSent!.properties.deliveredAt = { type: 'string' };
    }, stream);
    expect(openApiBreakingChanges(streamAsOpenApi(stream), streamAsOpenApi(after))).toEqual([]);
  });
});

describe('the connector protocol, bundled with the public spec it references', () => {
  const connector = readYaml(specs.connector);

  it('follows a change made in the referenced spec', () => {
    const after = changed((s) => {
      s.Capability!.properties.name = { type: 'string', enum: ['command.message_send.conversation.v1'] };
    });
    const changes = openApiBreakingChanges(bundle(connector, { 'switchboard.yaml': api }), bundle(connector, { 'switchboard.yaml': after }));
    expect(changes.map((c) => c.where)).toContain('POST /v1/connector/lease request body');
  });
});

describe('majorBumps', () => {
  it('reads the packages a changeset bumps by a major version', () => {
    const changesets = [
      '---\n"@switchboard/contracts": major\n"@switchboard/sdk": minor\n---\n\nRemoved disposition.\n',
      "---\n'@switchboard/sdk': patch\n---\n\nmajor cleanup in the text is not a bump\n",
    ];
    expect(majorBumps(changesets)).toEqual(['@switchboard/contracts']);
    expect(majorBumps(['---\n"@switchboard/sdk": minor\n---\n'])).toEqual([]);
  });
});
