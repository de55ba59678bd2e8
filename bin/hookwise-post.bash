#!/usr/bin/env bash
# Answers one coding-agent harness hook event through a running `hookwise serve` on this
# machine, and runs the hook command it is given itself whenever the server does not answer
# in full: not running, another or a changed config, a call that waits in the approval
# inbox, an event too large to post, no answer within 30 s. `hookwise setup HARNESS CONFIG
# --server URL` writes it.
#
#   bash hookwise-post.bash HOST PORT HARNESS CONFIG AGENT COMMAND [ARG...]
#
# AGENT is the config's agent to answer with ("" for its default one). The event is read once
# from stdin and given to whichever answers. The server's token, when it has one, comes from
# HOOKWISE_SERVER_TOKEN in the harness's environment.
#
# It speaks HTTP/1.0 over bash's own /dev/tcp rather than starting curl: a hook runs on every
# tool call, and starting curl costs more than the server takes to answer. It is for a server
# on this machine over plain HTTP only; for any other server setup writes a curl command.
#
# An answer is the server's only when it is a 200 that says it is hookwise's answer
# (`x-hookwise-answer: 1`) and arrives whole, its `content-length` and nothing after it, with
# the connection closed (as HTTP/1.0 asks); anything else, the command decides.

set -u
export LC_ALL=C # lengths and characters in bytes
trap '' PIPE    # a server that closes early is a failed post, not the end of this script

host=$1 port=$2 harness=$3 config=$4 agent=$5
shift 5

# Posted up to this size (the server's body limit); a larger event goes to the command whole.
limit=1048576
event=
IFS= read -r -N $((limit + 1)) event || true

decide_here() {
  { exec 3>&-; } 2>/dev/null
  if ((${#event} > limit)); then
    { printf '%s' "$event"; cat; } | "$@"
  else
    printf '%s' "$event" | "$@"
  fi
  exit $?
}

((${#event} > limit)) && decide_here "$@"

# Header values percent-encoded (into $encoded), so any byte of a path reaches the server as
# it is.
encode() {
  local text=$1 char index hex
  encoded=$text
  # Most values need nothing encoded: one match, rather than a loop over their characters.
  [[ $text == *[!A-Za-z0-9/._~-]* ]] || return 0
  encoded=
  for ((index = 0; index < ${#text}; index++)); do
    char=${text:index:1}
    case $char in
    [A-Za-z0-9/._~-]) encoded+=$char ;;
    *)
      printf -v hex '%%%02X' "'$char"
      encoded+=$hex
      ;;
    esac
  done
}

token=${HOOKWISE_SERVER_TOKEN:-none}
newline=$'[\r\n]'
# A token that would end its header line is not sent: the command decides.
[[ $token =~ $newline ]] && decide_here "$@"
authority=$host
[[ $host == *:* ]] && authority="[$host]"

encode "$config"
config_header=$encoded
encode "$agent"
agent_header=$encoded

# The request whole, its body the event and a newline (JSON allows it): written in one system
# call, so the server reads it at once rather than a line at a time. Bash's output flushes at
# each line until its first flush; a newline to /dev/null makes that flush.
printf -v request 'POST /hooks/%s HTTP/1.0\r\nhost: %s:%s\r\ncontent-type: application/json\r\nx-hookwise-config-encoded: %s\r\nx-hookwise-agent-encoded: %s\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s\n' \
  "$harness" "$authority" "$port" "$config_header" "$agent_header" "$token" "$((${#event} + 1))" "$event"
echo >/dev/null
{ exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || decide_here "$@"
printf '%s' "$request" >&3 2>/dev/null || decide_here "$@"

deadline=$((SECONDS + 30))
left() {
  wait_for=$((deadline - SECONDS))
  ((wait_for > 0))
}

# The whole answer in one read: the server closes the connection after it (HTTP/1.0), and
# `read -N` reads in blocks where a line at a time reads one byte per system call. Up to
# `limit` bytes of headers and body; a longer answer is not taken.
response=
left || decide_here "$@"
IFS= read -r -N $((limit + 1)) -t "$wait_for" response <&3
(($? == 1)) || decide_here "$@" # 1: the server closed it; 0: too long; over 128: no answer in time
head=${response%%$'\r\n\r\n'*}
((${#head} < ${#response} && ${#head} <= 8192)) || decide_here "$@"
body=${response:${#head}+4}
status=${head%%$'\r\n'*}
[[ $status =~ ^HTTP/1\.[01]\ 200(\ |$) ]] || decide_here "$@"
length= ours= framed=
headers=${head:${#status}}
shopt -s nocasematch
while [[ -n $headers ]]; do
  headers=${headers#$'\r\n'}
  line=${headers%%$'\r\n'*}
  headers=${headers:${#line}}
  [[ $line =~ ^content-length:[[:space:]]*([0-9]{1,9})[[:space:]]*$ ]] && length=$((10#${BASH_REMATCH[1]}))
  [[ $line =~ ^x-hookwise-answer:[[:space:]]*1[[:space:]]*$ ]] && ours=1
  [[ $line =~ ^transfer-encoding: ]] && framed=1
done
shopt -u nocasematch
[[ -n $length && -n $ours && -z $framed ]] || decide_here "$@"
((${#body} == length)) || decide_here "$@"
{ exec 3>&-; } 2>/dev/null
printf '%s' "$body"
