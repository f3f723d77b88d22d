import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.ts';
import { databaseTarget } from './connect.ts';

describe('SWITCHBOARD_DATABASE_URL in libpq forms', () => {
  it('passes a URL with a host as it is', () => {
    expect(databaseTarget('postgres://app:pw@db.internal:5433/switchboard?sslmode=require')).toEqual({
      url: 'postgres://app:pw@db.internal:5433/switchboard?sslmode=require',
      where: 'db.internal:5433/switchboard',
    });
  });

  it("passes postgres.js's multi-host form as it is", () => {
    expect(databaseTarget('postgres://app:pw@db1:5432,db2:5433/switchboard?target_session_attrs=primary')).toEqual({
      url: 'postgres://app:pw@db1:5432,db2:5433/switchboard?target_session_attrs=primary',
      where: 'db1:5432,db2:5433/switchboard',
    });
    expect(() => databaseTarget('postgres://app:pw@[db1,db2/switchboard')).toThrow(ConfigError);
  });

  it('takes a Unix socket directory from the host parameter, and the port parameter, out of the URL', () => {
    expect(databaseTarget('postgresql://app:pw@/switchboard?host=/var/run/postgresql&port=5433&sslmode=disable')).toEqual({
      url: 'postgresql://app:pw@localhost/switchboard?sslmode=disable',
      host: '/var/run/postgresql',
      port: 5433,
      where: '/var/run/postgresql:5433/switchboard',
    });
  });

  it('takes a percent-encoded socket directory in the host place', () => {
    expect(databaseTarget('postgresql://app@%2Fvar%2Frun%2Fpostgresql:5433/switchboard')).toEqual({
      url: 'postgresql://app@localhost:5433/switchboard',
      host: '/var/run/postgresql',
      where: '/var/run/postgresql:5433/switchboard',
    });
  });

  it('refuses what it cannot read, without repeating the URL', () => {
    expect(() => databaseTarget('https://app:pw@db/switchboard')).toThrow(ConfigError);
    expect(() => databaseTarget('postgres://app:pw@[db/switchboard')).toThrow(new ConfigError('SWITCHBOARD_DATABASE_URL is not a valid URL'));
    expect(() => databaseTarget('postgres://app:pw@/switchboard?host=/tmp&port=x')).toThrow(ConfigError);
  });
});
