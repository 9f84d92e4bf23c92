-- Dev PostgreSQL: one database per service, owned by the shared "parley" role.
CREATE DATABASE parley_identity OWNER parley;
CREATE DATABASE parley_booking OWNER parley;
CREATE DATABASE parley_blog OWNER parley;
CREATE DATABASE parley_voice OWNER parley;
CREATE DATABASE parley_email OWNER parley;
CREATE DATABASE parley_settings OWNER parley;
