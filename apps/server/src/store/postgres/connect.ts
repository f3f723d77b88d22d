import postgres, { type Options, type Sql } from 'postgres';
import { ConfigError } from '../../config.ts';
import { StoreError } from '../types.ts';

/** What postgres.js is given for a SWITCHBOARD_DATABASE_URL. */
export interface DatabaseTarget {
  /** The URL as postgres.js parses it: libpq's `host` and `port` parameters taken out. */
  url: string;
  /** A host name or a Unix socket's directory that overrides the URL's host. */
  host?: string;
  port?: number;
  /** Where the database is, for messages: never the password. */
  where: string;
}

const SCHEME = /^postgres(?:ql)?:\/\//i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function readable(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new ConfigError('SWITCHBOARD_DATABASE_URL is not a valid URL');
  }
}

/**
 * Reads a connection URL in libpq's forms, which postgres.js does not all take: a Unix socket's
 * directory given as `?host=/var/run/postgresql` or percent-encoded as the host
 * (`postgresql://%2Fvar%2Frun%2Fpostgresql/db`), and credentials with no host
 * (`postgres://user@/db`, which reaches PGHOST, else localhost). A URL that cannot be read is a
 * ConfigError whose message leaves the URL out, since it may hold a password.
 */
export function databaseTarget(raw: string): DatabaseTarget {
  const scheme = SCHEME.exec(raw)?.[0];
  if (!scheme) throw new ConfigError('SWITCHBOARD_DATABASE_URL must start with postgres:// or postgresql://');
  const rest = raw.slice(scheme.length);
  const authority = rest.slice(0, rest.search(/[/?#]|$/));
  const credentials = authority.slice(0, authority.lastIndexOf('@') + 1);
  const hosts = authority.slice(credentials.length);
  if (hosts.includes(',')) {
    // postgres.js's own multi-host form (`h1:5432,h2:5433`): it reads the URL with the first host, as checked here.
    readable(`${scheme}${credentials}${hosts.split(',')[0]}${rest.slice(authority.length)}`);
    return { url: raw, where: `${hosts}${rest.slice(authority.length).split(/[?#]/)[0]}` };
  }
  const [, host = '', port = ''] = /^(.*?)(?::(\d*))?$/.exec(hosts)!;
  const socket = decoded(host).startsWith('/') ? decoded(host) : undefined;
  // Neither form has a host WHATWG's URL takes: a stand-in goes in its place, overridden below.
  const text = host === '' || socket ? `${scheme}${credentials}localhost${port ? `:${port}` : ''}${rest.slice(authority.length)}` : raw;
  const url = readable(text);
  const hostParameter = url.searchParams.get('host') || undefined;
  const portParameter = url.searchParams.get('port') || undefined;
  url.searchParams.delete('host');
  url.searchParams.delete('port');
  if (portParameter !== undefined && !/^\d{1,5}$/.test(portParameter)) throw new ConfigError('SWITCHBOARD_DATABASE_URL has a port parameter that is not a port number');
  const chosenHost = hostParameter ?? socket ?? (host === '' ? process.env.PGHOST : undefined);
  const shownPort = portParameter ?? port;
  const database = url.pathname.slice(1) || '(default database)';
  return {
    url: url.toString(),
    ...(chosenHost !== undefined ? { host: chosenHost } : {}),
    ...(portParameter !== undefined ? { port: Number(portParameter) } : {}),
    where: `${chosenHost ?? url.hostname}${shownPort ? `:${shownPort}` : ''}/${decoded(database)}`,
  };
}

/** A postgres.js client for the database `target` names. */
export function connect(target: DatabaseTarget, options: Options<Record<string, postgres.PostgresType>>): Sql {
  const { url, host, port } = target;
  return postgres(url, { ...options, ...(host !== undefined ? { host } : {}), ...(port !== undefined ? { port } : {}) });
}

/** A failure to open the database, as the operator reads it at start-up: where, and why (a StoreError, such as a schema mismatch, as it is). */
export function openFailure(target: DatabaseTarget, error: unknown): Error {
  if (error instanceof StoreError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new StoreError(`cannot open the PostgreSQL store at ${target.where}: ${why}`, { cause: error });
}
