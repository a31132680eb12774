/*  Loading the user's files, with the first error kept (file, line, message) so that Node can
    stop start-up with it instead of serving a half-loaded provider.
*/
:- module(rondo_load, [load_all/5, load_failure/3]).

:- use_module(rondo_provider, [set_provider/2, detect_provider/2]).
:- use_module(library(memfile)).
:- use_module(library(lists)).

:- dynamic failure/3, loading/1.

%!  load_all(+Flavour, +Files, +Scratch, +Object, -Name) is semidet.
%   Fails after recording the first problem, which load_failure/3 then reports.
load_all(Flavour, Files, Scratch, Object, Name) :-
    retractall(failure(_, _, _)),
    ( Flavour == logtalk -> prepare_logtalk(Scratch) ; true ),
    forall(member(File, Files), load_one(Flavour, File)),
    \+ failure(_, _, _),
    (   choose_provider(Flavour, Object, Name) -> set_provider(Flavour, Name)
    ;   Files = [First|_],
        ( Object == none -> What = 'no provider (a module or object with tools/1, prompts/1 or resources/1)'
        ; format(atom(What), 'provider ~w not found', [Object]) ),
        assertz(failure(First, @(null), What)), fail
    ).

%!  load_failure(-File, -Line, -Message) is det.
load_failure(File, Line, Message) :- failure(File, Line, Message), !.
load_failure(unknown, @(null), 'load failed').

choose_provider(Flavour, none, Name) :- !, detect_provider(Flavour, Name).
choose_provider(logtalk, Object, Object) :- !, user:current_object(Object).
choose_provider(plain, Module, Module) :- current_module(Module).

load_one(logtalk, File) :-
    file_name_extension(_, Ext, File), memberchk(Ext, [lgt, logtalk]), !,
    capture_stderr(user:logtalk_load(File), Outcome, Text),
    logtalk_outcome(File, Outcome, Text).
load_one(_, File) :-
    setup_call_cleanup(assertz(loading(File)),
        catch(load_files(user:File, []), E, record_exception(File, E)),
        retractall(loading(_))),
    record_module(File).

record_exception(File, E) :-
    message_text(E, Text),
    ( failure(_, _, _) -> true ; assertz(failure(File, @(null), Text)) ).

record_module(File) :-
    (   absolute_file_name(File, Abs, [file_type(prolog), access(read), file_errors(fail)]),
        source_file_property(Abs, module(M))
    ->  assertz(rondo_provider:rondo_loaded_module(M))
    ;   assertz(rondo_provider:rondo_loaded_module(user))
    ).

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

% Keeps the first error printed while a user file loads; the message is still printed.
user:message_hook(Term, error, Lines) :-
    loading(File), \+ failure(_, _, _),
    message_location(Term, File, F, L),
    lines_text(Lines, Text),
    assertz(failure(F, L, Text)),
    fail.

message_location(error(syntax_error(_), file(F, L, _, _)), _, F, L) :- !.
message_location(_, _, F, L) :- source_location(F, L), !.
message_location(_, File, File, @(null)).

lines_text(Lines, Text) :-
    with_output_to(string(S0), print_message_lines(current_output, '', Lines)),
    split_string(S0, "\n", " \t", Parts0), exclude(==(""), Parts0, Parts),
    atomic_list_concat(Parts, ' ', A), atom_string(A, Text).

message_text(E, Text) :-
    (   catch('$messages':translate_message(E, Lines, []), _, fail) -> lines_text(Lines, Text)
    ;   format(string(Text), '~q', [E])
    ).

% Logtalk prints its compiler errors itself (lines starting with "!"), so they are read back
% from a temporary standard error and then forwarded to the real one.
logtalk_outcome(File, Outcome, Text) :-
    (   Outcome == true, \+ sub_string(Text, _, _, _, "\n!"), \+ sub_string(Text, 0, 1, _, "!")
    ->  true
    ;   Outcome = exception(E) -> message_text(E, M0), atomic_list_concat([Text, M0], M),
        assertz(failure(File, @(null), M))
    ;   assertz(failure(File, @(null), Text))
    ).

capture_stderr(Goal, Outcome, Text) :-
    stream_property(Err, alias(user_error)),
    new_memory_file(MF),
    open_memory_file(MF, write, S, [encoding(utf8)]),
    set_stream(S, alias(user_error)),
    (   catch(Goal, E, true) -> ( var(E) -> Outcome = true ; Outcome = exception(E) )
    ;   Outcome = false
    ),
    set_stream(Err, alias(user_error)),
    close(S),
    memory_file_to_string(MF, Text), free_memory_file(MF),
    format(user_error, '~s', [Text]).

prepare_logtalk(Scratch) :-
    (   Scratch == none -> true
    ;   make_directory_path(Scratch), user:set_logtalk_flag(scratch_directory, Scratch)
    ),
    catch(user:set_logtalk_flag(report, warnings), _, true),
    module_property(rondo_load, file(Here)),
    file_directory_name(Here, Dir),
    forall(protocol_name(P), ensure_protocol(Dir, P)).

protocol_name(mcp_tool_protocol).
protocol_name(mcp_prompt_protocol).
protocol_name(mcp_resource_protocol).
protocol_name(mcp_multiround_protocol).
protocol_name(mcp_cache_protocol).
protocol_name(mcp_completion_protocol).

% Logtalk's own protocol files when its mcp_server library is installed; ours otherwise.
ensure_protocol(_, P) :- catch(user:current_protocol(P), _, fail), !.
ensure_protocol(_, P) :-
    catch(user:logtalk_library_path(mcp_server, _), _, fail),
    Spec =.. [mcp_server, P],
    catch(user:logtalk_load(Spec), _, fail),
    user:current_protocol(P), !.
ensure_protocol(Dir, P) :-
    atomic_list_concat([Dir, '/logtalk/', P], File),
    user:logtalk_load(File).
