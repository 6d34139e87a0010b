-- The deployment (issue 25, O1 and O2): which layout this catalog was set up with and, for the
-- separate layout, the identity of its data database. One row at most, written by the first
-- read-write opening after this version (storage.Deployment), never by this script: only an opening
-- knows its layout. A later opening with another layout, or with a data database of another
-- identity, is refused by name.
CREATE TABLE sp_deployment (
  singleton      boolean NOT NULL DEFAULT TRUE,
  catalog_id     varchar NOT NULL,
  layout         varchar NOT NULL,
  data_id        varchar NOT NULL,
  data_address   varchar NOT NULL,
  created_at     bigint  NOT NULL,
  CONSTRAINT sp_deployment_pk PRIMARY KEY (singleton),
  CONSTRAINT sp_deployment_singleton_ck CHECK (singleton),
  CONSTRAINT sp_deployment_layout_ck CHECK (layout IN ('SHARED', 'SEPARATE'))
);
