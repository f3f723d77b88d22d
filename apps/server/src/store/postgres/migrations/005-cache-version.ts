// One counter every write bumps when it changes what intake caches (a credential revoked, a pause,
// a lease taken or ended, a conversation renamed or its members changed): a replica reads it
// before serving cached rows and drops them when it moved (postgres/cache.ts).
export default `
CREATE TABLE cache_version (
  only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
  version BIGINT NOT NULL
);
INSERT INTO cache_version (only_row, version) VALUES (true, 0);
`;
