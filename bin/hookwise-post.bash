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
# HOOKWISE_SERVER_TOKEN in the harness's environment. With HOOKWISE_GATE=1 (the hook decides
# whether something happens) it ends with exit code 0 or 2 only: any other end of the command
# or of this script blocks (2), with the reason on stderr.
#
# It speaks HTTP/1.0 over bash's own /dev/tcp rather than starting curl: a hook runs on every
# tool call, and starting curl costs more than the server takes to answer. It is for a server
# on this machine over plain HTTP only; for any other server setup writes a curl command.
#
# An answer is the server's only when it is a 200 that says it is hookwise's answer
# (`x-hookwise-answer: 1`) and arrives whole, its `content-length` and nothing after it, with
# the connection closed (as HTTP/1.0 asks); anything else, the command decides.
#
# Each line runs on every tool call: the answer is read and checked with bash's own pattern
# matching (no regular expression to compile), stderr is put aside once rather than around
# each command that may fail.

set -u
export LC_ALL=C # lengths and characters in bytes
trap '' PIPE    # a server that closes early is a failed post, not the end of this script
# The harness's stderr on 4; until the command decides, this script's own errors go nowhere.
exec 4>&2 2>/dev/null
[[ ${HOOKWISE_GATE-} == 1 ]] &&
  trap 'code=$?; ((code == 0 || code == 2)) || { exec 2>&4; echo "hookwise: the hook command ended with exit code $code before deciding; blocked" >&2; exit 2; }' EXIT

host=$1 port=$2 harness=$3 config=$4 agent=$5
shift 5

# Posted up to this size (the server's body limit); a larger event goes to the command whole.
limit=1048576
event=
IFS= read -r -N $((limit + 1)) event

decide_here() {
  exec 3>&- 2>&4
  if ((${#event} > limit)); then
    { printf '%s' "$event"; cat; } | "$@" 4>&-
  else
    printf '%s' "$event" | "$@" 4>&-
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
# A token that would end its header line is not sent: the command decides.
[[ $token == *[$'\r\n']* ]] && decide_here "$@"
authority=$host
[[ $host == *:* ]] && authority="[$host]"

encode "$config"
config_header=$encoded
encode "$agent"
agent_header=$encoded

# The request whole, its body the event and a newline (JSON allows it): written in one system
# call, so the server reads it at once rather than a line at a time. Bash's output flushes at
# each line until its first flush; a newline to /dev/null (stderr, for now) makes that flush.
printf -v request 'POST /hooks/%s HTTP/1.0\r\nhost: %s:%s\r\ncontent-type: application/json\r\nx-hookwise-config-encoded: %s\r\nx-hookwise-agent-encoded: %s\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s\n' \
  "$harness" "$authority" "$port" "$config_header" "$agent_header" "$token" "$((${#event} + 1))" "$event"
echo >&2
{ exec 3<>"/dev/tcp/$host/$port"; } || decide_here "$@"
printf '%s' "$request" >&3 || decide_here "$@"

# The whole answer in one read: the server closes the connection after it (HTTP/1.0), and
# `read -N` reads in blocks where a line at a time reads one byte per system call. Up to
# `limit` bytes of headers and body; a longer answer is not taken.
response=
IFS= read -r -N $((limit + 1)) -t 30 -u 3 response
(($? == 1)) || decide_here "$@" # 1: the server closed it; 0: too long; over 128: no answer in time
head=${response%%$'\r\n\r\n'*}
((${#head} < ${#response} && ${#head} <= 8192)) || decide_here "$@"
body=${response:${#head}+4}
# Header names in any case: matched in lower case.
head=${head,,}
status=${head%%$'\r\n'*}
case $status in
'http/1.'[01]' 200' | 'http/1.'[01]' 200 '*) ;;
*) decide_here "$@" ;;
esac
length= ours= framed=
headers=${head:${#status}}
while [[ -n $headers ]]; do
  headers=${headers#$'\r\n'}
  line=${headers%%$'\r\n'*}
  headers=${headers:${#line}}
  case $line in
  content-length:*)
    # Digits (at most 9), with spaces or tabs around them.
    value=${line#*:}
    value=${value#"${value%%[!$' \t']*}"}
    value=${value%"${value##*[!$' \t']}"}
    [[ -n $value && ${#value} -le 9 && $value != *[!0-9]* ]] && length=$((10#$value))
    ;;
  x-hookwise-answer:*) [[ ${line//[$' \t']/} == x-hookwise-answer:1 ]] && ours=1 ;;
  transfer-encoding:*) framed=1 ;;
  esac
done
[[ -n $length && -n $ours && -z $framed ]] || decide_here "$@"
((${#body} == length)) || decide_here "$@"
printf '%s' "$body"
