"""Live sessions: a talk at the microphone, then questions and answers by voice.

One module per part, as in faster-whisper: :mod:`~coach.live.options`,
:mod:`~coach.live.inputs` (the microphone or the virtual mic), :mod:`~coach.live.models`
(the background loader), :mod:`~coach.live.folder` (the session folder),
:mod:`~coach.live.results`, :mod:`~coach.live.recorder` (record, segment and transcribe as
it goes), :mod:`~coach.live.events`, :mod:`~coach.live.asker` (what the engine asks of the
asking side), :mod:`~coach.live.engine` (the turns) and :mod:`~coach.live.rehearsal` (the
talk and the audience). The stream, endpointer, sinks and models stay flat in
:mod:`coach`. Nothing is imported here, so importing one part loads only what it needs.
"""
