"""The store's schema: the migrations that build it, and the values its
status columns allow.

`MIGRATIONS` is an ordered tuple of SQL scripts; the database's `PRAGMA
user_version` counts those applied, and each one runs in its own transaction
together with the bump of that count (database.Database.migrate). To change
the schema, append a script; never edit or reorder one that has shipped
(databases out there have applied it, and will not apply it again). Scripts
are literal SQL, not generated from the constants of this package, so that
changing the code never changes what an old migration did.
"""

from __future__ import annotations

from typing import Literal

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE campaigns (
        campaign_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled')),
        spec_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        finished_at REAL
    );
    CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
        error TEXT,
        scenario_json TEXT NOT NULL,
        provenance_json TEXT NOT NULL,
        result_json TEXT,
        campaign_id TEXT REFERENCES campaigns (campaign_id),
        item_index INTEGER,
        created_at REAL NOT NULL,
        started_at REAL,
        finished_at REAL
    );
    CREATE INDEX runs_by_creation ON runs (created_at);
    CREATE INDEX runs_by_campaign ON runs (campaign_id, item_index);
    CREATE TABLE campaign_items (
        campaign_id TEXT NOT NULL REFERENCES campaigns (campaign_id) ON DELETE CASCADE,
        item_index INTEGER NOT NULL,
        configuration INTEGER NOT NULL,
        iteration INTEGER NOT NULL,
        parameters_json TEXT NOT NULL,
        scenario_json TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
        run_id TEXT REFERENCES runs (run_id),
        PRIMARY KEY (campaign_id, item_index)
    );
    CREATE TABLE iterations (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        jain_index REAL,
        fec_json TEXT,
        link_json TEXT,
        lan_json TEXT,
        seeds_json TEXT,
        plan_json TEXT,
        PRIMARY KEY (run_id, iteration)
    );
    CREATE TABLE flow_summaries (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        flow INTEGER NOT NULL,
        flow_group INTEGER,
        transport TEXT,
        cc TEXT,
        direction TEXT,
        start_s REAL,
        bytes INTEGER,
        download_time_s REAL,
        goodput_mbps REAL,
        retransmissions INTEGER,
        mean_rtt_ms REAL,
        power_mbps_per_s REAL,
        error TEXT,
        details_json TEXT NOT NULL,
        PRIMARY KEY (run_id, iteration, flow)
    );
    CREATE TABLE flow_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        flow INTEGER NOT NULL,
        bytes_acked INTEGER,
        goodput_mbps REAL,
        cwnd_bytes INTEGER,
        rtt_ms REAL,
        retransmissions INTEGER,
        delivery_rate_mbps REAL
    );
    CREATE INDEX flow_samples_by_run ON flow_samples (run_id, iteration, t_s);
    CREATE TABLE link_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        link TEXT NOT NULL CHECK (link IN ('satellite', 'lan')),
        direction TEXT NOT NULL CHECK (direction IN ('forward', 'return', 'down', 'up')),
        queue_bytes INTEGER,
        in_flight_packets INTEGER,
        packets_in INTEGER,
        bytes_in INTEGER,
        packets_out INTEGER,
        bytes_out INTEGER,
        drops_buffer INTEGER,
        drops_channel INTEGER,
        drops_overflow INTEGER,
        drops INTEGER,
        lateness_p99_ms REAL,
        lateness_max_ms REAL
    );
    CREATE INDEX link_samples_by_run ON link_samples (run_id, iteration, t_s);
    CREATE TABLE tunnel_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('forward', 'return')),
        tx_plain INTEGER,
        tx_sources INTEGER,
        tx_repairs INTEGER,
        tx_flush_repairs INTEGER,
        rx_plain INTEGER,
        rx_sources INTEGER,
        rx_repairs INTEGER,
        rx_lost INTEGER,
        rx_recovered INTEGER,
        rx_unrecovered INTEGER,
        rx_malformed INTEGER,
        rx_decoding_delay_p99_ms REAL,
        rx_decoding_delay_max_ms REAL
    );
    CREATE INDEX tunnel_samples_by_run ON tunnel_samples (run_id, iteration, t_s);
    """,
    # A study run is a campaign: which study, and whether it was a quick smoke run.
    """
    ALTER TABLE campaigns ADD COLUMN study TEXT;
    ALTER TABLE campaigns ADD COLUMN study_quick INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX campaigns_by_study ON campaigns (study, created_at);
    """,
    # Roles: who started a run or campaign (NULL: the command line), runs the
    # instructor shares with the class, the students, the audit trail of every
    # state-changing action, and the class's secrets and settings (satlab.api.auth).
    """
    ALTER TABLE runs ADD COLUMN owner TEXT;
    ALTER TABLE runs ADD COLUMN shared INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX runs_by_owner ON runs (owner, created_at);
    ALTER TABLE campaigns ADD COLUMN owner TEXT;
    CREATE TABLE students (
        student_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        joined_at REAL NOT NULL
    );
    CREATE TABLE audit (
        audit_id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        status INTEGER NOT NULL,
        address TEXT
    );
    CREATE TABLE class_state (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
    );
    """,
    # Quotas the instructor set while the server ran (PUT /api/class/quotas):
    # each replaces its SATLAB_LIMIT_<NAME> value, within its ceiling.
    """
    CREATE TABLE quotas (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL CHECK (value >= 0),
        set_at REAL NOT NULL
    );
    """,
    # Every fate a packet meets, counted: satlink's AQM drops (a part of its
    # buffer drops), and the tunnel's datagrams held and not believed
    # (rejected) or whose tag did not verify (unauthenticated).
    """
    ALTER TABLE link_samples ADD COLUMN drops_aqm INTEGER;
    ALTER TABLE tunnel_samples ADD COLUMN rx_rejected INTEGER;
    ALTER TABLE tunnel_samples ADD COLUMN rx_unauthenticated INTEGER;
    """,
    # Runs on many machines (issue 23). Whether a run went to the workers
    # through the broker (a restart takes such runs back instead of failing
    # them), which worker ran it (NULL: the process that queued it) and which attempt of its campaign
    # item it was (a run whose worker vanished is tried once more, as a new
    # run of the same item: both stay, each with its outcome). Each run's
    # fidelity evidence (satlab.engine.fidelity) and its verdict, each
    # iteration's; filled in from the results of the runs stored before.
    # Each campaign item's idempotency key: a run request redelivered by the
    # broker names it, and an item is counted once whatever arrives twice.
    """
    ALTER TABLE runs ADD COLUMN via_broker INTEGER NOT NULL DEFAULT 0 CHECK (via_broker IN (0, 1));
    ALTER TABLE runs ADD COLUMN worker TEXT;
    ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1);
    ALTER TABLE runs ADD COLUMN fidelity_json TEXT;
    ALTER TABLE runs ADD COLUMN host_kept_up INTEGER CHECK (host_kept_up IN (0, 1));
    UPDATE runs SET fidelity_json = json_extract(result_json, '$.fidelity'),
                    host_kept_up = json_extract(result_json, '$.fidelity.host_kept_up')
        WHERE json_type(result_json, '$.fidelity') = 'object';
    ALTER TABLE iterations ADD COLUMN fidelity_json TEXT;
    UPDATE iterations SET fidelity_json = (
        SELECT json_extract(runs.result_json, '$.iterations[' || iterations.iteration || '].fidelity')
        FROM runs WHERE runs.run_id = iterations.run_id
          AND json_type(runs.result_json, '$.iterations[' || iterations.iteration || '].fidelity') = 'object');
    ALTER TABLE campaign_items ADD COLUMN idempotency_key TEXT;
    UPDATE campaign_items SET idempotency_key = campaign_id || ':' || item_index;
    CREATE UNIQUE INDEX campaign_items_by_key ON campaign_items (idempotency_key);
    """,
    # A student is a person (issue 20): their name is unique in the class
    # whatever its case (name_key: satlab.api.student_names), and signing in
    # again with it needs their personal key, which the browser keeps and the
    # instructor can show. Students of before keep their rows: the first of
    # each name keeps it, the others get their id after it; each gets a key.
    # Sessions are rows that logout and the removal of a student delete, and
    # that expire (the cookie holds a random token, the table its SHA-256).
    """
    ALTER TABLE students ADD COLUMN name_key TEXT;
    ALTER TABLE students ADD COLUMN key TEXT;
    UPDATE students SET name_key = lower(name) WHERE student_id = (
        SELECT first.student_id FROM students AS first WHERE lower(first.name) = lower(students.name)
        ORDER BY first.joined_at, first.student_id LIMIT 1);
    UPDATE students SET name_key = lower(name) || ' #' || student_id WHERE name_key IS NULL;
    UPDATE students SET key = upper(hex(randomblob(5)));
    CREATE UNIQUE INDEX students_by_name ON students (name_key);
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        role TEXT NOT NULL CHECK (role IN ('instructor', 'student')),
        student_id TEXT REFERENCES students (student_id) ON DELETE CASCADE,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        CHECK ((role = 'student') = (student_id IS NOT NULL))
    );
    CREATE INDEX sessions_by_expiry ON sessions (expires_at);
    CREATE INDEX sessions_by_student ON sessions (student_id);
    """,
    # Through a split-TCP PEP (issue 22): which connection a flow's sample
    # describes (its hop: satlab.engine.pep.segments), and the PEP's own
    # counters per flow. A flow's samples of before were its sender's
    # socket's: through the PEPs (its summary counts connections they
    # relayed) the server's hop for a download, the client's for an upload
    # (with a gateway PEP alone, the satellite hop); end to end otherwise.
    # A PEP run that stored no summary of a flow keeps end-to-end there.
    """
    ALTER TABLE flow_samples ADD COLUMN hop TEXT NOT NULL DEFAULT 'end-to-end'
        CHECK (hop IN ('end-to-end', 'client', 'satellite', 'server'));
    UPDATE flow_samples SET hop = (
        SELECT CASE WHEN s.direction != 'upload' THEN 'server'
                    WHEN json_extract(s.details_json, '$.pep_mode') = 'distributed' THEN 'client'
                    ELSE 'satellite' END
        FROM flow_summaries AS s
        WHERE s.run_id = flow_samples.run_id AND s.iteration = flow_samples.iteration AND s.flow = flow_samples.flow)
    WHERE EXISTS (
        SELECT 1 FROM flow_summaries AS s
        WHERE s.run_id = flow_samples.run_id AND s.iteration = flow_samples.iteration AND s.flow = flow_samples.flow
          AND json_extract(s.details_json, '$.pep_connections') > 0);
    CREATE TABLE pep_samples (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        t_s REAL NOT NULL,
        flow INTEGER NOT NULL,
        client_bytes INTEGER,
        client_retransmissions INTEGER,
        satellite_bytes INTEGER,
        satellite_retransmissions INTEGER,
        server_bytes INTEGER,
        server_retransmissions INTEGER,
        terminal_buffer_bytes INTEGER,
        terminal_pipe_bytes INTEGER,
        gateway_buffer_bytes INTEGER,
        gateway_pipe_bytes INTEGER
    );
    CREATE INDEX pep_samples_by_run ON pep_samples (run_id, iteration, t_s);
    """,
    # Where a lone run came from (issue 18), recorded when it is queued: the page or tool (the
    # console's form, a lab sheet's widget, a request that names no page, `satlab run`), the lab
    # sheet, and the preset it ran (NULL: a scenario of its own). Runs of before stay NULL: not
    # recorded. A campaign's run records its campaign (campaign_id), which names its study.
    """
    ALTER TABLE runs ADD COLUMN origin TEXT
        CHECK (origin IS NULL OR (origin IN ('experiments', 'sheet', 'api', 'command-line') AND campaign_id IS NULL));
    ALTER TABLE runs ADD COLUMN origin_sheet TEXT CHECK ((origin_sheet IS NOT NULL) = (origin IS 'sheet'));
    ALTER TABLE runs ADD COLUMN lab TEXT CHECK (lab IS NULL OR origin IS NOT NULL);
    """,
    # How late the tunnel's receiving endpoint was over each interval (swf-tunnel's lateness_ms, the
    # fidelity evidence's figure for the tunnel). Samples of before stay NULL: not measured.
    """
    ALTER TABLE tunnel_samples ADD COLUMN rx_lateness_p99_ms REAL;
    ALTER TABLE tunnel_samples ADD COLUMN rx_lateness_max_ms REAL;
    """,
)

RunStatus = Literal["queued", "running", "done", "failed", "cancelled"]
ItemStatus = Literal["pending", "running", "done", "failed", "cancelled"]
CampaignStatus = Literal["running", "done", "cancelled"]

RUN_STATUSES: tuple[RunStatus, ...] = ("queued", "running", "done", "failed", "cancelled")
ITEM_STATUSES: tuple[ItemStatus, ...] = ("pending", "running", "done", "failed", "cancelled")
CAMPAIGN_STATUSES: tuple[CampaignStatus, ...] = ("running", "done", "cancelled")
FINISHED: tuple[RunStatus, ...] = ("done", "failed", "cancelled")
