#!/bin/sh
# Creates the two Secrets of the controllers in namespace abfleet; no password is written in
# any manifest.
#
#   abfleet-db              key password: the PostgreSQL password of user abfleet, read by the
#                           controllers through ABFLEET_DB_PASSWORD (fleet.yaml's password_env).
#                           Taken from $ABFLEET_DB_PASSWORD if set, else 32 random bytes
#                           (base64), printed once so that you can set it in PostgreSQL:
#                             ALTER USER abfleet PASSWORD '...';
#   abfleet-controller-tls  ca.crt, tls.crt, tls.key from CERTS_DIR (default ./certs), made with
#                           abfleet's own CA; the certificate serves gRPC and the cluster's
#                           mutual TLS, and must name the Service every client uses:
#                             abfleet certs init --dir certs
#                             abfleet certs issue --controller controller --dir certs \
#                                 --san abfleet.abfleet.svc.cluster.local,abfleet.abfleet.svc,abfleet
#
# Each worker node needs its own certificate (worker.yaml reads it from the node's
# /etc/abfleet/tls): abfleet certs issue --worker NODE_NAME --dir certs, then copy
# certs/ca.pem, NODE_NAME.pem and NODE_NAME-key.pem to /etc/abfleet/tls on that node.
#
# Usage: k8s/secrets.sh [CERTS_DIR]
set -eu
certs=${1:-certs}
for f in ca.pem controller.pem controller-key.pem; do
  if [ ! -r "$certs/$f" ]; then
    echo "secrets.sh: $certs/$f missing; run abfleet certs init and issue --controller controller (see the top of this file)" >&2
    exit 2
  fi
done
if [ -n "${ABFLEET_DB_PASSWORD:-}" ]; then
  password=$ABFLEET_DB_PASSWORD
else
  password=$(head -c 32 /dev/urandom | base64 | tr -d '\n')
  echo "abfleet-db password (set it for PostgreSQL user abfleet): $password"
fi
kubectl -n abfleet create secret generic abfleet-db --from-literal=password="$password"
kubectl -n abfleet create secret generic abfleet-controller-tls --from-file=ca.crt="$certs/ca.pem" \
  --from-file=tls.crt="$certs/controller.pem" --from-file=tls.key="$certs/controller-key.pem"
