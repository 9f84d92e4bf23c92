-- Runs once, on the first start of the compose PostgreSQL (empty data volume):
-- one database per service, each owned by the service's own role. Services never read another
-- service's database (docs/architecture.md). Passwords here are for the local run only.
CREATE ROLE parley_identity LOGIN PASSWORD 'parley_identity';
CREATE ROLE parley_booking  LOGIN PASSWORD 'parley_booking';
CREATE ROLE parley_blog     LOGIN PASSWORD 'parley_blog';
CREATE ROLE parley_voice    LOGIN PASSWORD 'parley_voice';
CREATE ROLE parley_email    LOGIN PASSWORD 'parley_email';
CREATE ROLE parley_settings LOGIN PASSWORD 'parley_settings';

CREATE DATABASE parley_identity OWNER parley_identity;
CREATE DATABASE parley_booking  OWNER parley_booking;
CREATE DATABASE parley_blog     OWNER parley_blog;
CREATE DATABASE parley_voice    OWNER parley_voice;
CREATE DATABASE parley_email    OWNER parley_email;
CREATE DATABASE parley_settings OWNER parley_settings;
