# The commerce service behind Varnish (docs/caching.md). Included by a
# top-level VCL that declares the backend (default.vcl), unchanged by tests.
#
# - Stores only what the service marks `Cache-Control: public` and that sets
#   no cookie; everything else (sessions, carts, accounts, orders, admin) is
#   passed through, never stored, never shared between shoppers. Storefront
#   pages are looked up only for requests without the storefront's cookies
#   (others, such as analytics, are dropped from page requests).
# - TTL from s-maxage; stale-while-revalidate is served while a background
#   fetch refreshes; stale-if-error is served while the backend's health
#   probe fails.
# - POST /.cache/purge, from an allowed address with the bearer token in the
#   COMMERCE_PURGE_TOKEN environment variable of varnishd, bans every object
#   whose Surrogate-Key holds one of the request's keys (`*`: everything).

import std;

acl commerce_purgers {
  "localhost";
  "127.0.0.1";
  "::1";
  "10.0.0.0"/8;
  "172.16.0.0"/12;
  "192.168.0.0"/16;
}

sub vcl_recv {
  if (req.restarts == 0) {
    unset req.http.X-Commerce-Fresh;
  }
  # The URL the object is kept under (vcl_hash): the URL itself, unless a page's tracking parameters are left out below.
  set req.http.X-Commerce-Key = req.url;
  if (req.url == "/.cache/purge") {
    if (req.method != "POST") {
      return (synth(405));
    }
    if (client.ip !~ commerce_purgers) {
      return (synth(403));
    }
    if (std.getenv("COMMERCE_PURGE_TOKEN") == "" || req.http.Authorization != "Bearer " + std.getenv("COMMERCE_PURGE_TOKEN")) {
      return (synth(401));
    }
    if (req.http.Surrogate-Key == "*") {
      if (!std.ban("obj.status != 0")) {
        return (synth(500, std.ban_error()));
      }
      return (synth(204));
    }
    # Keys are letters, digits, _ : and -, so they are safe inside the ban's regular expression.
    if (req.http.Surrogate-Key !~ "^[A-Za-z0-9_:-]+( [A-Za-z0-9_:-]+)*$") {
      return (synth(400));
    }
    # Key boundaries written without spaces or backslashes, which the ban's own parser would take apart.
    if (!std.ban("obj.http.Surrogate-Key ~ (^|[^A-Za-z0-9_:-])(" + regsuball(req.http.Surrogate-Key, " ", "|") + ")([^A-Za-z0-9_:-]|$)")) {
      return (synth(500, std.ban_error()));
    }
    return (synth(204));
  }
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  if (req.http.Authorization) {
    return (pass);
  }
  # A page's cache key is its URL without campaign tags and ad-click IDs (the storefront's tracking-params.ts
  # names the same), which change no page: an ad click (a click ID of its own) shares the page everyone gets
  # instead of missing. Only the key: the service gets the URL as asked (it takes them out itself, and a
  # redirect it answers, never stored, keeps them for the shop's analytics). Only in the query, each piece
  # matched whole: the query is read as "&piece&piece…".
  if (req.url ~ "\?" && req.url !~ "^/(api|media|_app)/") {
    set req.http.X-Commerce-Key = regsub(req.url, "\?.*$", "") + regsub(regsuball(regsub(req.url, "^[^?]*\?", "&"), "&(utm_[^&=]*|gclid|gclsrc|dclid|gbraid|wbraid|srsltid|_gl|fbclid|msclkid|ttclid|twclid|li_fat_id|yclid|igshid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|_kx)(=[^&]*)?(?=&|$)", ""), "^&", "?");
  }
  # A stale object the backend can refresh now (past stale-while-revalidate) is not served: see vcl_hit.
  if (req.http.X-Commerce-Fresh) {
    set req.grace = 0s;
  }
  # The API's and the image host's answers never depend on a cookie: only what the service marks public is
  # stored, and a request with a session is served it too (on a miss it reaches the service, cookie and all).
  # A storefront page does depend on some: the cookies named in the storefront's cookie-names.ts (who is
  # signed in, a visitor's CSRF token, the cart, a notice). A page request carrying one goes to the service.
  # Any other cookie (a shop's analytics or consent banner) changes no page: it is dropped here, so that
  # visitor shares the pages of visitors without cookies.
  if (req.http.Cookie && req.url !~ "^/(api|media|_app)/") {
    if (req.http.Cookie ~ "(^|;)\s*(session|presession|cart|added|merged|cart_notice|cancelled|checkout_draft|checkout_coupon|checkout_address|address_added|placed)=") {
      return (pass);
    }
    unset req.http.Cookie;
  }
  return (hash);
}

# The built-in key (the URL, the Host header) with the URL as its cache key above, and what else the
# service builds a page's URL from: the forwarded host and protocol, believed from a proxy in TRUST_PROXY
# (this cache). A client that sends its own gets an object of its own, never one stored for everyone else.
sub vcl_hash {
  hash_data(req.http.X-Commerce-Key);
  if (req.http.host) {
    hash_data(req.http.host);
  } else {
    hash_data(server.ip);
  }
  hash_data(req.http.X-Forwarded-Host);
  hash_data(req.http.X-Forwarded-Proto);
  return (lookup);
}

sub vcl_hit {
  if (obj.ttl >= 0s) {
    return (deliver);
  }
  # stale-while-revalidate: served now, refreshed in the background.
  if (obj.ttl + std.duration(obj.http.X-Commerce-SWR, 0s) > 0s) {
    return (deliver);
  }
  # stale-if-error: served while the backend is unhealthy.
  if (!std.healthy(req.backend_hint)) {
    return (deliver);
  }
  set req.http.X-Commerce-Fresh = "1";
  return (restart);
}

sub vcl_backend_fetch {
  unset bereq.http.X-Commerce-Fresh;
  unset bereq.http.X-Commerce-Key;
}

sub vcl_backend_response {
  if (bereq.uncacheable) {
    return (deliver);
  }
  if (beresp.http.Set-Cookie || beresp.http.Cache-Control !~ "(^|,)\s*public\b" || beresp.http.Cache-Control ~ "private|no-store|no-cache") {
    # Not stored; the next request for this URL goes straight to the service (hit-for-miss), and a later
    # public answer is stored again.
    set beresp.uncacheable = true;
    set beresp.ttl = 60s;
    return (deliver);
  }
  if (beresp.http.Cache-Control ~ "s-maxage=\d+") {
    set beresp.ttl = std.duration(regsub(beresp.http.Cache-Control, "^.*s-maxage=(\d+).*$", "\1s"), 0s);
  }
  set beresp.http.X-Commerce-SWR = "0s";
  # The service sends stale-while-revalidate in Surrogate-Control only (browsers would apply it too).
  if (beresp.http.Surrogate-Control ~ "stale-while-revalidate=\d+") {
    set beresp.http.X-Commerce-SWR = regsub(beresp.http.Surrogate-Control, "^.*stale-while-revalidate=(\d+).*$", "\1s");
  }
  set beresp.grace = std.duration(beresp.http.X-Commerce-SWR, 0s);
  if (beresp.http.Cache-Control ~ "stale-if-error=\d+") {
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=(\d+).*$", "\1s"), beresp.grace);
  }
  # A background refresh the backend fails keeps the stale object (stale-if-error) instead of storing the error.
  if (beresp.status >= 500 && bereq.is_bgfetch) {
    return (abandon);
  }
  return (deliver);
}

sub vcl_deliver {
  unset resp.http.X-Commerce-SWR;
  # Varnish has acted on it; downstream caches are told by Cache-Control (and CDN-Cache-Control).
  unset resp.http.Surrogate-Control;
  # The keys are for caches, not for browsers.
  unset resp.http.Surrogate-Key;
  unset resp.http.Cache-Tag;
  if (obj.uncacheable) {
    set resp.http.X-Cache = "PASS";
  } elsif (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}
