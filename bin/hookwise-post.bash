#!/usr/bin/env bash
# Answers one coding-agent harness hook event through a running `hookwise serve` on this
# machine, and runs the hook command it is given itself whenever the server does not answer
# 200 in full: not running, another or a changed config, a call that waits in the approval
# inbox, no answer within 30 s. `hookwise setup HARNESS CONFIG --server URL` writes it.
#
#   bash hookwise-post.bash HOST PORT HARNESS CONFIG COMMAND [ARG...]
#
# The event is read once from stdin and given to whichever answers. The server's token, when
# it has one, comes from HOOKWISE_SERVER_TOKEN in the harness's environment.
#
# It speaks HTTP/1.0 over bash's own /dev/tcp rather than starting curl: a hook runs on every
# tool call, and starting curl costs more than the server takes to answer. It is for a server
# on this machine over plain HTTP only; for any other server setup writes a curl command.

set -u
export LC_ALL=C # lengths in bytes

host=$1 port=$2 harness=$3 config=$4
shift 4

# The whole event: JSON holds no NUL byte, so reading up to one reads to the end.
event=
IFS= read -r -d '' event || true

decide_here() {
  exec 3>&- 2>/dev/null
  printf '%s' "$event" | "$@"
  exit $?
}

token=${HOOKWISE_SERVER_TOKEN:-none}
newline=$'[\r\n]'
# A value that would end a header line is not sent: the command decides.
[[ $config =~ $newline || $token =~ $newline || $host =~ $newline ]] && decide_here "$@"

{ exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || decide_here "$@"
printf 'POST /hooks/%s HTTP/1.0\r\nhost: %s:%s\r\ncontent-type: application/json\r\nx-hookwise-config: %s\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s' \
  "$harness" "$host" "$port" "$config" "$token" "${#event}" "$event" >&3 2>/dev/null || decide_here "$@"

deadline=$((SECONDS + 30))
left() {
  wait_for=$((deadline - SECONDS))
  ((wait_for > 0))
}

left && IFS= read -r -t "$wait_for" status <&3 || decide_here "$@"
[[ $status =~ ^HTTP/1\.[01]\ 200[\ $'\r'] ]] || decide_here "$@"
length= headers_end=
shopt -s nocasematch
while left && IFS= read -r -t "$wait_for" line <&3; do
  line=${line%$'\r'}
  [[ -z $line ]] && headers_end=1 && break
  [[ $line =~ ^content-length:[[:space:]]*([0-9]+)[[:space:]]*$ ]] && length=${BASH_REMATCH[1]}
done
shopt -u nocasematch
[[ -n $headers_end && -n $length ]] || decide_here "$@"

body=
if ((length > 0)); then
  left || decide_here "$@"
  IFS= read -r -d '' -t "$wait_for" body <&3
fi
# Only an answer read in full is the server's: anything short of it, the command decides.
((${#body} == length)) || decide_here "$@"
exec 3>&-
printf '%s' "$body"
