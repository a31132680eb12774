/** <module> The protocol channel, on file descriptor 3: one message per line, both ways. Node writes
    each message as the text of a Prolog term in the JSON conventions of rondo_json ({'k'-V, ...},
    quoted atoms, @(true)) ended by a full stop, read here in C by read_term/3 straight from the
    stream (no line string in between); the worker answers with JSON lines.

    SWI-Prolog cannot open an inherited descriptor by number, and /dev/fd/3 cannot be opened when
    it is a socket (Node's extra stdio pipes are socketpairs). So two pipes are made and their
    descriptors are replaced with copies of 3 (dup2): the pipe streams then read and write fd 3.
    Standard output is left to user code: the alias user_output is moved to standard error, and
    anything written below Prolog (a shell command, say) reaches Node's stdout, never the protocol.
*/
:- module(rondo_channel, [open_channel/0, answer_batch/1, send/1, send_result/2, receive/1,
                          receive_answer/1]).

:- use_module(library(unix), [pipe/2, dup/2]).
:- use_module(rondo_json, [json_text/2, curly_get/3]).

:- dynamic channel/2.
:- dynamic stashed/1.

%!  open_channel is det.
open_channel :-
    pipe(In, W0), close(W0),
    pipe(R0, Out), close(R0),
    stream_property(In, file_no(InFd)), dup(3, InFd),
    stream_property(Out, file_no(OutFd)), dup(3, OutFd),
    set_stream(In, encoding(utf8)), set_stream(Out, encoding(utf8)),
    set_stream(In, buffer(full)), set_stream(Out, buffer(full)),
    set_stream(In, alias(rondo_in)), set_stream(Out, alias(rondo_out)),
    assertz(channel(In, Out)),
    nb_setval(rondo_unflushed, 0),
    answer_batch(4),
    thread_create(flusher(Out), _, [alias(rondo_flusher), detached(true)]),
    isolate_user_streams.

% User code that prints to user_output, or reads user_input, must not touch the protocol.
isolate_user_streams :-
    set_stream(user_error, alias(user_output)),
    set_output(user_error),
    open_string("", Empty),
    set_stream(Empty, alias(user_input)),
    set_input(Empty).

%!  send(+Json) is det.
%   Writes one message; the line is built first, so a term that is not JSON writes nothing.
send(Json) :-
    json_text(Json, Text),
    channel(_, Out),
    with_mutex(rondo_out, (write(Out, Text), nl(Out), flush_output(Out))).

%!  send_result(+Id, +Value) is det.
%   Writes {"type":"result","id":Id,"value":Value}: the same line send/1 writes for it, with the
%   envelope written as it is (only the value is converted); nothing is written when Value is
%   not JSON.
send_result(Id, Value) :-
    must_be(nonneg, Id),
    json_text(Value, Text),
    channel(_, Out),
    with_mutex(rondo_out,
        ( format(Out, '{"type":"result","id":~d,"value":', [Id]),
          write(Out, Text), write(Out, '}\n') )),
    answered(Out).

% Under pipelining the next call is often read in already when one is answered: its answer then
% waits in the buffer, so that answers leave together (each write wakes Node, and under load those
% wake-ups cost more than the calls). But never more than a batch of them (half the calls Node
% may write ahead, set by answer_batch/1): Node refills a worker once half its calls are
% answered, so the next calls arrive while this worker runs the other half instead of after
% it ran them all (with every answer held to the end, each side waits while the other works).
% The flusher thread writes what waits within a millisecond, so an answer never waits on a long
% call behind it; with nothing to read, it leaves at once.
answered(Out) :-
    channel(In, _),
    nb_getval(rondo_unflushed, Held0),
    Held is Held0 + 1,
    nb_getval(rondo_answer_batch, Batch),
    (   Held < Batch, wait_for_input([In], [_], 0)
    ->  nb_setval(rondo_unflushed, Held),
        arm_flusher
    ;   nb_setval(rondo_unflushed, 0),
        with_mutex(rondo_out, flush_output(Out))
    ).

% Wakes the flusher unless it is armed already: waking a thread per answer costs more than the
% answer. The flag is cleared by the flusher before it flushes, so an answer held after that
% arms it again, and one held before it leaves with that flush.
arm_flusher :-
    flag(rondo_flusher_armed, Armed, 1),
    (   Armed == 0 -> thread_send_message(rondo_flusher, flush) ; true ).

%!  answer_batch(+Size) is det.
%   At most Size answers wait in the buffer for the ones after them (1: each leaves at once).
answer_batch(Size) :-
    must_be(positive_integer, Size),
    nb_setval(rondo_answer_batch, Size).

%!  flusher(+Out) is det.
%   The thread that flushes answers left in the buffer: a millisecond after the first of
%   them, all that wait then leave in one write.
flusher(Out) :-
    thread_get_message(flush),
    sleep(0.001),
    flag(rondo_flusher_armed, _, 0),
    drain_flush_requests,
    with_mutex(rondo_out, flush_output(Out)),
    flusher(Out).

drain_flush_requests :-
    (   thread_get_message(rondo_flusher, flush, [timeout(0)]) -> drain_flush_requests ; true ).

%!  receive(-Json) is semidet.
%   Reads the next message (one set aside by receive_answer/1 first); fails at end of input.
receive(Json) :-
    retract(stashed(Json0)), !,
    Json = Json0.
receive(Json) :-
    read_message(Json).

%!  receive_answer(-Json) is semidet.
%   Reads the next answer to a question of the running call. Node may have written the next
%   calls already (several calls in flight per worker): they are set aside for receive/1.
receive_answer(Json) :-
    read_message(Msg),
    (   curly_get(Msg, op, answer)
    ->  Json = Msg
    ;   assertz(stashed(Msg)),
        receive_answer(Json)
    ).

% Node ends every message with a full stop and a newline; the newline is read too, so that a
% buffer holding nothing but it does not count as input waiting (see answered/1).
read_message(Json) :-
    channel(In, _),
    % A double-quoted text is a string: Node writes one for an argument declared `+string`.
    read_term(In, Json, [double_quotes(string)]),
    Json \== end_of_file,
    skip(In, 0'\n).
