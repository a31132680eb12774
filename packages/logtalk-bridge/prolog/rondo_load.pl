/** <module> Loading the user's files, with the first error kept (file, line, message) so that Node can
    stop start-up with it instead of serving a half-loaded provider.
*/
:- module(rondo_load, [load_all/5, load_failure/4]).

:- use_module(rondo_provider, [set_provider/2, detect_provider/2]).
:- use_module(library(memfile)).
:- use_module(rondo_errors, [message_line/2]).
:- use_module(library(lists)).

:- dynamic failure/4, loading/1.

%!  load_all(+Flavour, +Files, +Scratch, +Object, -Name) is semidet.
%   Fails after recording the first problem, which load_failure/3 then reports.
load_all(Flavour, Files, Scratch, Object, Name) :-
    retractall(failure(_, _, _, _)),
    ( Flavour == logtalk -> prepare_logtalk(Scratch) ; true ),
    forall(member(File, Files), load_one(Flavour, File)),
    \+ failure(_, _, _, _),
    (   choose_provider(Flavour, Object, Name) -> set_provider(Flavour, Name)
    ;   Files = [First|_],
        ( Object == none -> What = 'no provider (a module or object with tools/1, prompts/1, resources/1 or skills/1)'
        ; format(atom(What), 'provider ~w not found', [Object]) ),
        assertz(failure(First, @(null), @(null), What)), fail
    ).

%!  load_failure(-File, -Line, -Column, -Message) is det.
%   Line and Column are @null when unknown; Message carries no location of its own.
load_failure(File, Line, Column, Message) :- failure(File, Line, Column, Message), !.
load_failure(unknown, @(null), @(null), 'load failed').

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
    ( failure(_, _, _, _) -> true ; assertz(failure(File, @(null), @(null), Text)) ).

record_module(File) :-
    (   absolute_file_name(File, Abs, [file_type(prolog), access(read), file_errors(fail)]),
        source_file_property(Abs, module(M))
    ->  assertz(rondo_provider:rondo_loaded_module(M))
    ;   assertz(rondo_provider:rondo_loaded_module(user))
    ).

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

% Keeps the first error printed while a user file loads, instead of printing it: Node reports
% it, once, with its file, line and column. Later errors of the same load are printed as usual.
user:message_hook(Term, error, Lines) :-
    loading(File), \+ failure(_, _, _, _),
    message_location(Term, File, F, L, C),
    error_lines_text(Term, Lines, Text),
    assertz(failure(F, L, C, Text)).

message_location(error(syntax_error(_), file(F, L, C, _)), _, F, L, C) :- !.
message_location(_, _, F, L, @(null)) :- source_location(F, L), !.
message_location(_, File, File, @(null), @(null)).

error_lines_text(E, _, Text) :- E = error(existence_error(source_sink, _), _), !,
    message_text(E, Text).
error_lines_text(_, Lines0, Text) :-
    located_lines(Lines0, Lines), lines_text(Lines, Text).

% Prolog puts the location in front of some messages (url(File:Line:Column), ': '); it is
% reported apart.
located_lines([url(_), ': '|Lines], Lines) :- !.
located_lines([url(_)|Lines], Lines) :- !.
located_lines(Lines, Lines).

lines_text(Lines, Text) :-
    with_output_to(string(S0), print_message_lines(current_output, '', Lines)),
    split_string(S0, "\n", " \t", Parts0), exclude(==(""), Parts0, Parts),
    atomic_list_concat(Parts, ' ', A), atom_string(A, Text).

message_text(error(existence_error(source_sink, Spec), _), Text) :- !,
    format(string(Text), 'file not found: ~w', [Spec]).
message_text(E, Text) :-
    message_line(E, Text).

% Logtalk prints its compiler errors itself (lines starting with "!"), so they are read back
% from a temporary standard error: after a clean load they are forwarded to the real one (they
% are warnings); after a failed one the first error is reported, once, in one line.
logtalk_outcome(File, Outcome, Text) :-
    (   Outcome == true, \+ sub_string(Text, _, _, _, "\n!"), \+ sub_string(Text, 0, 1, _, "!")
    ->  format(user_error, '~s', [Text])
    ;   logtalk_error(Text, File, F, L, C, M) -> assertz(failure(F, L, C, M))
    ;   Outcome = exception(E) -> message_text(E, M), assertz(failure(File, @(null), @(null), M))
    ;   split_string(Text, "\n", " \t", Parts), exclude(==(""), Parts, Kept),
        ( Kept == [] -> M = 'logtalk_load/1 failed' ; atomic_list_concat(Kept, ' ', M) ),
        assertz(failure(File, @(null), @(null), M))
    ).

% The first "!" line is what went wrong; a later one says where ("in file(F, L, C, _)", or
% "in file F at or above line L" / "between lines L-M").
logtalk_error(Text, File, F, L, C, Headline) :-
    split_string(Text, "\n", "", Lines),
    findall(S, ( member(L0, Lines), string_concat("!", R, L0),
                 normalize_space(string(S), R), S \== "" ), [Headline|Rest]),
    (   member(Where, Rest), logtalk_place(Where, F, L, C) -> true
    ;   F = File, L = @(null), C = @(null)
    ).

logtalk_place(S, F, L, C) :-
    string_concat("in ", T, S),
    catch(term_string(file(F, L, C, _), T), error(syntax_error(_), _), fail),
    atom(F), integer(L), integer(C), !.
logtalk_place(S, F, L, @(null)) :-
    string_concat("in file ", T, S),
    split_string(T, " ", "", [FS|Words]),
    (   append(_, ["line", N], Words) -> true
    ;   append(_, ["lines", Range], Words), split_string(Range, "-", "", [N|_])
    ),
    number_string(L, N), atom_string(F, FS).

capture_stderr(Goal, Outcome, Text) :-
    stream_property(Err, alias(user_error)),
    new_memory_file(MF),
    open_memory_file(MF, write, S, [encoding(utf8)]),
    set_stream(S, alias(user_error)),
    % Whatever the load raises is its outcome, reported as the load error (stderr is restored first).
    (   catch(Goal, E, true) -> ( var(E) -> Outcome = true ; Outcome = exception(E) )
    ;   Outcome = false
    ),
    set_stream(Err, alias(user_error)),
    close(S),
    memory_file_to_string(MF, Text), free_memory_file(MF).

prepare_logtalk(Scratch) :-
    (   Scratch == none -> true
    ;   make_directory_path(Scratch), user:set_logtalk_flag(scratch_directory, Scratch)
    ),
    user:set_logtalk_flag(report, warnings),
    module_property(rondo_load, file(Here)),
    file_directory_name(Here, Dir),
    forall(protocol_name(P), ensure_protocol(Dir, P)).

protocol_name(mcp_tool_protocol).
protocol_name(mcp_prompt_protocol).
protocol_name(mcp_resource_protocol).
protocol_name(mcp_multiround_protocol).
protocol_name(mcp_cache_protocol).
protocol_name(mcp_completion_protocol).
protocol_name(mcp_skill_protocol).
protocol_name(mcp_event_protocol).
protocol_name(mcp_ui_protocol).

% Logtalk's own protocol files when its mcp_server library is installed; ours otherwise.
ensure_protocol(_, P) :- user:current_protocol(P), !.
ensure_protocol(_, P) :-
    user:logtalk_library_path(mcp_server, _),
    Spec =.. [mcp_server, P],
    % A library protocol that does not load (another Logtalk version's) is replaced by ours.
    catch(user:logtalk_load(Spec), error(_, _), fail),
    user:current_protocol(P), !.
ensure_protocol(Dir, P) :-
    atomic_list_concat([Dir, '/logtalk/', P], File),
    user:logtalk_load(File).
