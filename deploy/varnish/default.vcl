vcl 4.1;

# Varnish in front of one commerce instance (docs/caching.md). Copy this file
# and commerce.vcl to /etc/varnish/, set the backend's address, and start
# varnishd with COMMERCE_PURGE_TOKEN (the service's CACHE_PURGE_TOKEN) in its
# environment. Several instances: declare one backend each and a director
# (vmod directors) in vcl_init, and set req.backend_hint in a vcl_recv of
# your own above the include.

backend commerce {
  .host = "127.0.0.1";
  .port = "3000";
  .probe = {
    .url = "/health/ready";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
  }
}

include "commerce.vcl";
