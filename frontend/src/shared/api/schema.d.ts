/**
 * The satlab API's types, generated from the backend's OpenAPI document (`satlab openapi`) by
 * openapi-typescript: `npm run generate-api` writes this file, `npm run check-api` (in make
 * test-frontend) fails when it is not what the backend generates. Do not edit it by hand.
 */

export interface paths {
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Audit
         * @description Every state-changing action a signed-in user made that succeeded, and
         *     every sign-in attempt within the rate limit, newest first (the newest
         *     audit_retention_rows of them).
         */
        get: operations["get_audit_api_audit_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/instructor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign In Instructor */
        post: operations["sign_in_instructor_api_auth_instructor_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign Out
         * @description Ends this session on the server: its cookie no longer signs anything in.
         */
        post: operations["sign_out_api_auth_logout_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Me
         * @description Who this session is (anonymous without one); the only route open to everyone.
         */
        get: operations["me_api_auth_me_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/student": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign In Student
         * @description A new name makes a new student and their personal key; a name taken
         *     needs that key (from this browser's cookie, or `key`), else 409.
         */
        post: operations["sign_in_student_api_auth_student_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Campaigns
         * @description Newest first (a student's own only).
         */
        get: operations["list_campaigns_api_campaigns_get"];
        put?: never;
        /**
         * Create Campaign
         * @description The body is a campaign file as JSON; `scenario` names a lab or is a
         *     whole scenario. Every run is validated before the first starts; at most
         *     max_campaign_runs runs.
         */
        post: operations["create_campaign_api_campaigns_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Campaign */
        get: operations["get_campaign_api_campaigns__campaign_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Campaign
         * @description A campaign that is not running, with its runs, their samples and summaries.
         */
        delete: operations["delete_campaign_api_campaigns__campaign_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel Campaign */
        post: operations["cancel_campaign_api_campaigns__campaign_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Campaign
         * @description One row per run and flow, one column per matrix parameter.
         */
        get: operations["export_campaign_api_campaigns__campaign_id__csv_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Campaign Results
         * @description A campaign's results, as `satlab export campaign ID --what ... --format
         *     ...` writes them: its runs' samples one after the other, its summary (a
         *     row per item and flow, a column per matrix parameter), its finished runs'
         *     qlogs or packet captures, or `all` (a zip archive with a manifest).
         */
        get: operations["export_campaign_results_api_campaigns__campaign_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/campaigns/{campaign_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume Campaign */
        post: operations["resume_campaign_api_campaigns__campaign_id__resume_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Capabilities
         * @description Link backends, transports with their congestion controls, channel
         *     models; each unavailable thing says why, and `limitations` what this
         *     host (a container, often) cannot do that runs need.
         */
        get: operations["get_capabilities_api_capabilities_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Lab Channel Stats
         * @description The statistics of a lab's channel (forward, return, lan-up or
         *     lan-down) over duration_s (at most MAX_DURATION_S), with the seed
         *     iteration `iteration` of a run gets.
         */
        get: operations["get_lab_channel_stats_api_channels_stats_get"];
        put?: never;
        /**
         * Post Channel Stats
         * @description The statistics of a channel as in the scenario model (a ge-time
         *     channel may be given by loss_time_ratio and mean_burst_ms: the answer
         *     shows the p and q derived from them), with its seed or 1. A trace file
         *     is read from the labs directory only.
         */
        post: operations["post_channel_stats_api_channels_stats_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Class
         * @description What the instructor shows and watches: the class code, the students, the enabled presets, the storage.
         */
        get: operations["get_class_api_class_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New Class Code
         * @description A new class code (the old one stops working; signed-in students stay).
         */
        post: operations["new_class_code_api_class_code_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/labs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set Enabled Labs */
        put: operations["set_enabled_labs_api_class_labs_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Quotas
         * @description The quotas the instructor may change: each one's value now, its default and its ceiling.
         */
        get: operations["get_quotas_api_class_quotas_get"];
        /**
         * Set Quotas
         * @description Set every quota, each from 0 to its ceiling; new requests follow them at once (runs under
         *     way keep going). A quota above its ceiling is a 422 naming both, and nothing changes.
         */
        put: operations["set_quotas_api_class_quotas_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/students": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Students
         * @description Every student, in the order they joined, with their personal key and how many runs they started.
         */
        get: operations["list_students_api_class_students_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/students/{student_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rename Student
         * @description A student's new name (409 if another student has it).
         */
        put: operations["rename_student_api_class_students__student_id__put"];
        post?: never;
        /**
         * Remove Student
         * @description Remove a student: their sessions end at once, their queued and running
         *     runs and campaigns are cancelled, and their name is free again; their
         *     finished runs stay (listed with their id).
         */
        delete: operations["remove_student_api_class_students__student_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/class/students/{student_id}/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New Student Key
         * @description A new personal key for a student (the old one no longer signs in as
         *     them); their sessions end.
         */
        post: operations["new_student_key_api_class_students__student_id__key_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Labs */
        get: operations["get_labs_api_labs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labs/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Lab
         * @description The preset as written (`text`) and as validated (`scenario`, with every default).
         */
        get: operations["get_lab_api_labs__name__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Limits
         * @description Every quota and limit the server enforces now (SATLAB_LIMIT_<NAME> sets one; the instructor, a quota).
         */
        get: operations["get_limits_api_limits_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/limits/tunnel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Tunnel Limits
         * @description The FEC tunnel S(k,z) a scenario may ask for, as the scenario model
         *     checks it, for every form that offers one.
         */
        get: operations["get_tunnel_limits_api_limits_tunnel_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Runs
         * @description Newest first (a student's: their own and those shared with the class).
         */
        get: operations["list_runs_api_runs_get"];
        put?: never;
        /**
         * Create Run
         * @description Queue a run; it starts as soon as fewer than max_concurrent_runs run.
         *     A student's run is a preset the instructor enabled, within the quotas
         *     (GET /api/limits): 403 beyond what a student may run, 429 beyond what
         *     they, or everyone, may have queued now.
         */
        post: operations["create_run_api_runs_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Run */
        get: operations["get_run_api_runs__run_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Run
         * @description A finished run, with its samples and summaries.
         */
        delete: operations["delete_run_api_runs__run_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel Run
         * @description Stop a queued or running run; it tears down and ends `cancelled`.
         */
        post: operations["cancel_run_api_runs__run_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/csv/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export Csv */
        get: operations["export_csv_api_runs__run_id__csv__kind__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Run
         * @description A finished run's results, as `satlab export run ID --what ... --format ...`
         *     writes them: `samples` (flow, link, tunnel and PEP tables), `summaries`, `qlog`
         *     (each QUIC flow's, both ends, as qvis opens them), `pcap` (packet captures
         *     with each packet's fate), or `all` (a zip archive with a manifest).
         */
        get: operations["export_run_api_runs__run_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Queue Place
         * @description A queued run's place in line (1: next; null once it runs) and about
         *     when it starts, in seconds from now (null until a run has finished).
         */
        get: operations["get_queue_place_api_runs__run_id__queue_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/samples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Samples
         * @description Every sample so far (10 per second): per flow and hop, per link direction, per tunnel direction, and
         *     per flow split by a PEP.
         */
        get: operations["get_samples_api_runs__run_id__samples_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{run_id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Share Run
         * @description Show the run to every student (shared=false: no longer).
         */
        post: operations["share_run_api_runs__run_id__share_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/storage/prune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prune
         * @description Drop the samples of runs finished more than retention_days ago (their
         *     summaries stay) and the audit entries beyond audit_retention_rows; or
         *     more, as the body asks: what always brings a full database
         *     (max_database_bytes) back under its limit, with DELETE /api/runs/{id}.
         */
        post: operations["prune_api_storage_prune_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List All
         * @description Every study recipe in labs/studies, with its published figures.
         */
        get: operations["list_all_api_studies_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studies/{study_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Study
         * @description The recipe, its published figures, and the report shipped with it (`shipped_report`, or null).
         */
        get: operations["get_study_api_studies__study_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studies/{study_id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Report
         * @description satlab's medians (IQR, n) beside the published figures, bands, and the conclusion checks; the
         *     configurations whose runs' host could not keep up flagged.
         */
        get: operations["get_report_api_studies__study_id__report_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studies/{study_id}/report.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export Report */
        get: operations["export_report_api_studies__study_id__report_csv_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/studies/{study_id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Study Runs
         * @description The campaigns that ran this study, oldest first.
         */
        get: operations["list_study_runs_api_studies__study_id__runs_get"];
        put?: never;
        /**
         * Start Study Run
         * @description A study run is a campaign (GET /api/campaigns/{id} follows it); the instructor's to start.
         */
        post: operations["start_study_run_api_studies__study_id__runs_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Workers
         * @description The workers and what each runs now: with a broker, every `satlab
         *     worker` whose heartbeat is alive; without one, this server itself.
         */
        get: operations["get_workers_api_workers_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Aqm
         * @description Early drop in front of the drop-tail buffer (satlink only): while more
         *     than the threshold waits (bytes not yet serialised), each arrival is
         *     dropped with probability drop_ratio. The threshold in bytes, or as a
         *     ratio of the buffer: exactly one.
         */
        Aqm: {
            /** Drop Ratio */
            drop_ratio: number;
            /**
             * Seed
             * @default null
             */
            seed: number | null;
            /**
             * Threshold Bytes
             * @default null
             */
            threshold_bytes: number | null;
            /**
             * Threshold Ratio
             * @default null
             */
            threshold_ratio: number | null;
        };
        /** AuditPublic */
        AuditPublic: {
            /** Count */
            count: number;
            /**
             * Data
             * @description Newest first.
             */
            data: components["schemas"]["AuditRow"][];
        };
        /** AuditRow */
        AuditRow: {
            /** Action */
            action: string;
            /** Actor */
            actor: string;
            /** Address */
            address: string | null;
            /** At */
            at: number;
            /** Audit Id */
            audit_id: number;
            /** Status */
            status: number;
        };
        /** Bernoulli */
        Bernoulli: {
            /** Loss */
            loss: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "bernoulli";
            /** Seed */
            seed?: number | null;
        };
        /** Bernoulli */
        "Bernoulli-Output": {
            /** Loss */
            loss: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "bernoulli";
            /**
             * Seed
             * @default null
             */
            seed: number | null;
        };
        /**
         * Buffer
         * @description The drop-tail limit of a bottleneck: exactly one of the three.
         */
        Buffer: {
            /**
             * Bdp
             * @default null
             */
            bdp: number | null;
            /**
             * Bytes
             * @default null
             */
            bytes: number | null;
            /**
             * Packets
             * @default null
             */
            packets: number | null;
        };
        /** BurstHistogram */
        BurstHistogram: {
            /** Bin Width */
            bin_width: number;
            /** Counts */
            counts: number[];
        };
        /** Bursts */
        Bursts: {
            /** Count */
            count: number;
            histogram: components["schemas"]["BurstHistogram"];
            /** Max */
            max: number;
            /** Mean */
            mean: number;
            /** Min */
            min: number;
            /**
             * Unit
             * @enum {string}
             */
            unit: "ms" | "packets";
        };
        /**
         * CalibrationSummary
         * @description The host's calibration the run was admitted under.
         */
        CalibrationSummary: {
            /**
             * Max Concurrent
             * @description Runs of each kind at once that kept up.
             */
            max_concurrent: {
                [key: string]: number;
            };
            /**
             * Measured At
             * @description ISO 8601, UTC.
             */
            measured_at: string;
        };
        /** CampaignDetail */
        CampaignDetail: {
            /** Campaign Id */
            campaign_id: string;
            /**
             * Created At
             * @description Unix time, seconds.
             */
            created_at: number;
            /**
             * Finished At
             * @description Unix time, seconds.
             */
            finished_at: number | null;
            /**
             * Items
             * @description One per configuration and iteration, in the order they run, each with every run it had (attempts: a second follows a first whose worker vanished mid-run).
             */
            items: components["schemas"]["CampaignItemDetailRow"][];
            /** Name */
            name: string;
            progress: components["schemas"]["CampaignProgress"];
            /** @description The campaign file, as validated. */
            spec: components["schemas"]["CampaignSpec"];
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "done" | "cancelled";
            /**
             * Study
             * @description The study this campaign runs (GET /api/studies/{id}).
             */
            study: string | null;
            /**
             * Study Quick
             * @description A study's quick smoke run, not a result.
             * @default false
             */
            study_quick: boolean;
        };
        /**
         * CampaignEvent
         * @description A campaign's state and progress: first on its stream, then after each change.
         */
        CampaignEvent: {
            /** Campaign Id */
            campaign_id: string;
            progress: components["schemas"]["CampaignProgress"];
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "done" | "cancelled";
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "campaign";
        };
        /**
         * CampaignItemDetailRow
         * @description An item with every run it had, oldest first (the last is run_id's).
         */
        CampaignItemDetailRow: {
            /** Attempts */
            attempts: components["schemas"]["ItemAttemptRow"][];
            /** Configuration */
            configuration: number;
            /** Idempotency Key */
            idempotency_key: string | null;
            /** Item Index */
            item_index: number;
            /** Iteration */
            iteration: number;
            /** Parameters */
            parameters: {
                [key: string]: unknown;
            };
            /** Run Id */
            run_id: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "pending" | "running" | "done" | "failed" | "cancelled";
        };
        /**
         * CampaignProgress
         * @description A campaign's items counted by status.
         */
        CampaignProgress: {
            /** Cancelled */
            cancelled: number;
            /** Done */
            done: number;
            /** Failed */
            failed: number;
            /** Pending */
            pending: number;
            /** Running */
            running: number;
            /** Total */
            total: number;
        };
        /** CampaignPublic */
        CampaignPublic: {
            /** Campaign Id */
            campaign_id: string;
            /**
             * Created At
             * @description Unix time, seconds.
             */
            created_at: number;
            /**
             * Finished At
             * @description Unix time, seconds.
             */
            finished_at: number | null;
            /** Name */
            name: string;
            progress: components["schemas"]["CampaignProgress"];
            /** @description The campaign file, as validated. */
            spec: components["schemas"]["CampaignSpec"];
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "done" | "cancelled";
            /**
             * Study
             * @description The study this campaign runs (GET /api/studies/{id}).
             */
            study: string | null;
            /**
             * Study Quick
             * @description A study's quick smoke run, not a result.
             * @default false
             */
            study_quick: boolean;
        };
        /** CampaignSpec */
        CampaignSpec: {
            /**
             * Description
             * @default
             */
            description: string;
            /**
             * Iterations
             * @default 1
             */
            iterations: number;
            /** Matrix */
            matrix: {
                [key: string]: unknown[];
            };
            /** Name */
            name: string;
            /**
             * Parallel
             * @default 1
             */
            parallel: number;
            /** Scenario */
            scenario: string | {
                [key: string]: unknown;
            };
            /**
             * Seed
             * @default 1
             */
            seed: number;
            /** Set */
            set: {
                [key: string]: unknown;
            };
        };
        CampaignStreamEvent: components["schemas"]["CampaignEvent"] | components["schemas"]["StateEvent"] | components["schemas"]["ErrorEvent"] | components["schemas"]["SummaryEvent"];
        /** CampaignsPublic */
        CampaignsPublic: {
            /** Count */
            count: number;
            /** Data */
            data: components["schemas"]["CampaignPublic"][];
        };
        /** Capabilities */
        Capabilities: {
            /** Channel Models */
            channel_models: string[];
            /**
             * Cubic Hystart Parameter
             * @description The host's CUBIC Hystart parameter exists.
             */
            cubic_hystart_parameter: boolean;
            /**
             * Fec Tunnel
             * @description swf-tunnel is built.
             */
            fec_tunnel: boolean;
            /** Kernel */
            kernel: string;
            /**
             * Limitations
             * @description What this host (a container, often) cannot do that runs need.
             */
            limitations: string[];
            /** Link Backends */
            link_backends: components["schemas"]["LinkBackend"][];
            /** Max Concurrent Runs */
            max_concurrent_runs: number;
            /** Root */
            root: boolean;
            tcp_congestion_controls: components["schemas"]["TcpCongestionControls"];
            /** Transports */
            transports: components["schemas"]["TransportCapability"][];
        };
        /**
         * Capture
         * @description What the run keeps; packet captures are off by default, qlogs and key logs on.
         */
        Capture: {
            /**
             * Keylog
             * @description each QUIC flow's TLS secrets (NSS key log), embedded into the packet captures so that Wireshark decrypts them
             * @default true
             */
            keylog: boolean;
            /**
             * Max Bytes
             * @description the most bytes the run's kept files may take, compressed; null: the service's default (run_artifact_bytes in GET /api/limits)
             * @default null
             */
            max_bytes: number | null;
            /**
             * Packets
             * @description pcapng of the satellite link (each direction), the LAN segment and the tunnel (each endpoint's datagrams sent and received), each packet with its fate (delivered, dropped by the buffer or the AQM, lost on the channel; the tunnel's source, repair, rebuilt, given up, rejected)
             * @default false
             */
            packets: boolean;
            /**
             * Qlog
             * @description each QUIC flow's qlog from both ends (for qvis)
             * @default true
             */
            qlog: boolean;
            /**
             * Snap Bytes
             * @description bytes of each captured packet kept (headers only by default; Wireshark decrypts QUIC only from whole packets: 1500 or more)
             * @default 128
             */
            snap_bytes: number;
        };
        /**
         * ChannelStats
         * @description swf-channel's figures (see codec/README.md), with the channel they describe.
         */
        ChannelStats: {
            bursts: components["schemas"]["Bursts"];
            /** Channel */
            channel: {
                [key: string]: unknown;
            };
            /** Duration S */
            duration_s: number;
            /** Lost Ms */
            lost_ms: number | null;
            /** Model */
            model: string;
            /** Packet Bytes */
            packet_bytes: number;
            /** Packet Loss Ratio */
            packet_loss_ratio: number;
            /** Packets */
            packets: number;
            /** Packets Lost */
            packets_lost: number;
            /** Rate Mbps */
            rate_mbps: number;
            /** Seed */
            seed: number;
            /** Spec */
            spec: string;
            /** Time Based */
            time_based: boolean;
            /** Time Lost Ratio */
            time_lost_ratio: number | null;
        };
        /**
         * ChannelStatsRequest
         * @description A channel as in the scenario model (its seed, or DEFAULT_SEED), and the stream.
         */
        ChannelStatsRequest: {
            /** Channel */
            channel: components["schemas"]["Perfect"] | components["schemas"]["Bernoulli"] | components["schemas"]["GilbertElliottPacket"] | components["schemas"]["GilbertElliottTime"] | components["schemas"]["Outage"] | components["schemas"]["Trace"];
            /**
             * Duration S
             * @default 60
             */
            duration_s?: number;
            /**
             * Packet Bytes
             * @default 1400
             */
            packet_bytes?: number;
            /**
             * Rate Mbps
             * @default 10
             */
            rate_mbps?: number;
        };
        /** CheckComparison */
        CheckComparison: {
            /**
             * Denominator
             * @description null: the bound is on the numerator's median itself.
             */
            denominator: {
                [key: string]: string;
            } | null;
            /** Denominator Median */
            denominator_median: number | null;
            /**
             * Difference
             * @description Numerator's median minus the denominator's (absent from older reports).
             */
            difference: number | null;
            /**
             * Holds
             * @description null: a median is missing, or a censored one leaves it open (value_range).
             */
            holds: boolean | null;
            /** Numerator */
            numerator: {
                [key: string]: string;
            };
            /** Numerator Median */
            numerator_median: number | null;
            /** Ratio */
            ratio: number | null;
            /**
             * Value
             * @description What the bounds apply to: the ratio, the difference or the median, as the check's `compare` says (absent from older reports).
             */
            value: number | null;
            /**
             * Value Range
             * @description With a censored median: the least and the most the value can be (the most null: no bound); null: the medians are exact (absent from older reports).
             */
            value_range: (number | null)[] | null;
        };
        /** CheckStatement */
        CheckStatement: {
            /** Id */
            id: string;
            /** Statement */
            statement: string;
        };
        /** ClassCode */
        ClassCode: {
            /** Class Code */
            class_code: string;
        };
        /**
         * ClassPublic
         * @description What the instructor shows and watches.
         */
        ClassPublic: {
            /**
             * Class Code
             * @description What students sign in with (POST /api/auth/student).
             */
            class_code: string;
            /**
             * Database Bytes
             * @description What the database's pages in use take.
             */
            database_bytes: number;
            /**
             * Enabled Labs
             * @description The presets students may run; null: every preset.
             */
            enabled_labs: string[] | null;
            /** Max Database Bytes */
            max_database_bytes: number;
            /** Retention Days */
            retention_days: number;
            /**
             * Students
             * @description In the order they joined, each with their personal key and how many runs they started.
             */
            students: components["schemas"]["StudentRow"][];
        };
        /**
         * ClassQuotas
         * @description Every quota of Limits.ceilings(): the instructor's form sends what it
         *     shows. Each one's maximum is its ceiling, which the environment sets:
         *     document_ceilings writes it in.
         */
        ClassQuotas: {
            /**
             * Audit Retention Rows
             * @description entries the audit trail keeps (the oldest beyond are dropped)
             */
            audit_retention_rows: number;
            /**
             * Retention Days
             * @description days a finished run keeps its samples (its summary stays)
             */
            retention_days: number;
            /**
             * Student Campaigns
             * @description 1 lets students start campaigns, 0 keeps them to the instructor
             */
            student_campaigns: number;
            /**
             * Student Concurrent Runs
             * @description runs one student may have queued or running at once
             */
            student_concurrent_runs: number;
            /**
             * Student Cross Traffic Mbps
             * @description Mbit/s of cross traffic a student's run may send, in all
             */
            student_cross_traffic_mbps: number;
            /**
             * Student Flow Bytes
             * @description bytes one flow of a student's run may move (size_bytes)
             */
            student_flow_bytes: number;
            /**
             * Student Flow Duration S
             * @description seconds one flow or cross traffic of a student's run may last
             */
            student_flow_duration_s: number;
            /**
             * Student Iterations
             * @description iterations one student's run may have
             */
            student_iterations: number;
            /**
             * Student Link Rate Mbps
             * @description Mbit/s a link direction of a student's run may carry (the satellite link's and the LAN's)
             */
            student_link_rate_mbps: number;
            /**
             * Student Runs Per Hour
             * @description runs one student may start in an hour
             */
            student_runs_per_hour: number;
        };
        /**
         * CrossTraffic
         * @description Background traffic across one direction of the satellite link: a
         *     constant-rate UDP stream (iperf3 -u) that competes with the flows, on the
         *     return link with a download's ACKs. It counts in no flow summary.
         */
        CrossTraffic: {
            /**
             * Duration S
             * @default null
             */
            duration_s: number | null;
            /**
             * Link
             * @default return
             * @enum {string}
             */
            link: "return" | "forward";
            /** Rate Mbps */
            rate_mbps: number;
            /**
             * Start S
             * @default 0
             */
            start_s: number;
        };
        /**
         * CrossTrafficResult
         * @description A UDP cross-traffic stream: what was sent and what arrived.
         */
        CrossTrafficResult: {
            /** Error */
            error: string | null;
            /** Index */
            index: number;
            /** Link */
            link: string;
            /** Loss Ratio */
            loss_ratio: number | null;
            /** Lost Packets */
            lost_packets: number | null;
            /** Packets */
            packets: number | null;
            /** Rate Mbps */
            rate_mbps: number;
            /** Received Bytes */
            received_bytes: number | null;
            /** Seconds */
            seconds: number | null;
            /** Sent Bytes */
            sent_bytes: number | null;
            /** Sent Mbps */
            sent_mbps: number | null;
            /** Start S */
            start_s: number;
            /** Started */
            started: boolean;
        };
        /** CrossTrafficState */
        CrossTrafficState: {
            /** Index */
            index: number;
            /** Running */
            running: boolean;
        };
        /**
         * DelayBin
         * @description A range of the extra delay, picked with probability weight / (the sum
         *     of the weights); the delay is uniform inside it.
         */
        DelayBin: {
            /** High Ms */
            high_ms: number;
            /** Low Ms */
            low_ms: number;
            /** Weight */
            weight: number;
        };
        /**
         * DelayVariation
         * @description An extra one-way delay on top of delay_ms that varies in time
         *     (satlink only). Model distribution: drawn from the bins and held for
         *     step_ms. Model trace: read from file, lines "t_ms delay_ms" from t_ms 0,
         *     the trace starting over every trace_period_ms if > 0. Packets never
         *     overtake one another: after the delay falls, a packet waits for the one
         *     before it, as on a FIFO link.
         */
        DelayVariation: {
            /**
             * Bins
             * @default null
             */
            bins: components["schemas"]["DelayBin"][] | null;
            /**
             * File
             * @default null
             */
            file: string | null;
            /**
             * Model
             * @enum {string}
             */
            model: "distribution" | "trace";
            /**
             * Seed
             * @default null
             */
            seed: number | null;
            /**
             * Step Ms
             * @default null
             */
            step_ms: number | null;
            /**
             * Trace Period Ms
             * @default 0
             */
            trace_period_ms: number;
        };
        /**
         * Direction
         * @description One direction of the satellite link.
         */
        Direction: {
            /** @default null */
            aqm: components["schemas"]["Aqm"] | null;
            /**
             * @default {
             *       "bdp": 1,
             *       "bytes": null,
             *       "packets": null
             *     }
             */
            buffer: components["schemas"]["Buffer"];
            /**
             * Channel
             * @default {
             *       "model": "perfect",
             *       "seed": null
             *     }
             */
            channel: components["schemas"]["Perfect-Output"] | components["schemas"]["Bernoulli-Output"] | components["schemas"]["GilbertElliottPacket-Output"] | components["schemas"]["GilbertElliottTime-Output"] | components["schemas"]["Outage-Output"] | components["schemas"]["Trace-Output"];
            /** Delay Ms */
            delay_ms: number;
            /** @default null */
            delay_variation: components["schemas"]["DelayVariation"] | null;
            /**
             * Frame Ms
             * @default null
             */
            frame_ms: number | null;
            /** Rate Mbps */
            rate_mbps: number;
            /** @default null */
            rate_trace: components["schemas"]["RateTrace"] | null;
        };
        /** EnabledLabs */
        EnabledLabs: {
            /**
             * Enabled Labs
             * @description The presets students may run; null: every preset.
             */
            enabled_labs: string[] | null;
        };
        /** ErrorEvent */
        ErrorEvent: {
            /**
             * Campaign Id
             * @default null
             */
            campaign_id: string | null;
            /** Message */
            message: string;
            /** Run Id */
            run_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "error";
        };
        EventsStreamEvent: components["schemas"]["StateEvent"] | components["schemas"]["ErrorEvent"] | components["schemas"]["SummaryEvent"] | components["schemas"]["CampaignEvent"];
        /** ExperimentPublic */
        ExperimentPublic: {
            /**
             * Axes
             * @description The axes it varies, and their levels.
             */
            axes: {
                [key: string]: string[];
            };
            /**
             * Quick
             * @description Its part of the quick run (null: none).
             */
            quick: {
                [key: string]: string[];
            } | null;
            /** Title */
            title: string;
        };
        /**
         * Explanation
         * @description The recipe's explanation of a figure out of its band or a check that fails.
         */
        Explanation: {
            /**
             * Readme
             * @description That section's link, relative to the study's folder: README.md#anchor.
             */
            readme: string;
            /**
             * Section
             * @description The heading of the study's README section that says more.
             */
            section: string;
            /**
             * Text
             * @description One sentence.
             */
            text: string;
        };
        /**
         * FecDirection
         * @description One direction of the FEC tunnel, counted (packets) at its receiving endpoint.
         */
        FecDirection: {
            decoding_delay_ms: components["schemas"]["Percentiles"] | null;
            /**
             * Held
             * @description In-order delivery: packets held behind a gap.
             */
            held: number | null;
            /** @description In-order delivery: how long packets were held. */
            hold_delay_ms: components["schemas"]["Percentiles"] | null;
            /**
             * Hold Timeouts
             * @description In-order delivery: gaps passed over at the hold time.
             */
            hold_timeouts: number | null;
            /** @description How late the receiving endpoint was: how long datagrams waited in its socket, and its timers past their deadlines (the run's fidelity evidence judges it). */
            lateness_ms: components["schemas"]["Percentiles"] | null;
            /** Lost */
            lost: number;
            /** Recovered */
            recovered: number;
            /**
             * Rejected
             * @description Datagrams held and not believed.
             */
            rejected: number | null;
            /** Repairs */
            repairs: number;
            /**
             * Residual Loss
             * @description (lost - recovered) / (sources + lost).
             */
            residual_loss: number;
            /** Sources */
            sources: number;
            /**
             * Unauthenticated
             * @description With a key: datagrams whose tag did not verify.
             */
            unauthenticated: number | null;
        };
        /** FecSummary */
        FecSummary: {
            forward: components["schemas"]["FecDirection"] | null;
            return: components["schemas"]["FecDirection"] | null;
        };
        /**
         * FlowAtTimeLimit
         * @description A flow when its iteration's time limit stopped it.
         */
        FlowAtTimeLimit: {
            /**
             * Bytes Acked
             * @description Its sender's bytes acknowledged at its last sample: how far it had got (null: never sampled).
             */
            bytes_acked: number | null;
            /** Direction */
            direction: string;
            /**
             * Download Time At Least S
             * @description How long it had been sending, from its first data packet: the least its download would have taken (null: finished, or never started).
             */
            download_time_at_least_s: number | null;
            /** Finished */
            finished: boolean;
            /** Flow */
            flow: number;
        };
        /**
         * FlowControl
         * @description The receiver's QUIC flow-control windows, as its transport parameters
         *     announce them (RFC 9000, 18.2): initial_max_data for the connection,
         *     initial_max_stream_data for the stream. None: the transport's default
         *     (16 MiB, above any lab path's bandwidth-delay product).
         */
        FlowControl: {
            /**
             * Connection Bytes
             * @default null
             */
            connection_bytes: number | null;
            /**
             * Stream Bytes
             * @default null
             */
            stream_bytes: number | null;
        };
        /**
         * FlowGroup
         * @description `count` identical flows starting together at start_s.
         */
        FlowGroup: {
            /**
             * Cc
             * @default cubic
             */
            cc: string;
            /**
             * Count
             * @default 1
             */
            count: number;
            /**
             * Direction
             * @default download
             * @enum {string}
             */
            direction: "download" | "upload";
            /**
             * Duration S
             * @default null
             */
            duration_s: number | null;
            /** @default null */
            flow_control: components["schemas"]["FlowControl"] | null;
            /**
             * Hystart
             * @default null
             */
            hystart: boolean | null;
            /**
             * Size Bytes
             * @default null
             */
            size_bytes: number | null;
            /**
             * Start S
             * @default 0
             */
            start_s: number;
            /**
             * Transport
             * @default tcp
             * @enum {string}
             */
            transport: "tcp" | "quic-picoquic" | "quic-ngtcp2";
            /**
             * Zero Rtt
             * @default off
             * @enum {string}
             */
            zero_rtt: "off" | "on" | "bdp";
        };
        /**
         * FlowResult
         * @description One flow of one iteration as the engine summarises it: every figure,
         *     and the transport's own besides (they differ by transport).
         */
        FlowResult: {
            /** Bottleneck Mbps */
            bottleneck_mbps: number | null;
            /** Bytes */
            bytes: number | null;
            /** Cc */
            cc: string | null;
            /** Direction */
            direction: string | null;
            /** Download Time S */
            download_time_s: number | null;
            /** Error */
            error: string | null;
            /** Flow */
            flow: number;
            /** Goodput Mbps */
            goodput_mbps: number | null;
            /** Group */
            group: number | null;
            /** Iteration */
            iteration: number;
            /**
             * Latecomer
             * @description It started after another flow of its direction.
             */
            latecomer: boolean | null;
            /**
             * Latecomer Convergence S
             * @description null for a latecomer: it never converged.
             */
            latecomer_convergence_s: number | null;
            /** Link Utilisation Ratio */
            link_utilisation_ratio: number | null;
            /** Mean Rtt Ms */
            mean_rtt_ms: number | null;
            /**
             * Pep Client Bytes
             * @description null with a gateway PEP alone: no client segment.
             */
            pep_client_bytes: number | null;
            /** Pep Client Retransmissions */
            pep_client_retransmissions: number | null;
            /** Pep Connections */
            pep_connections: number | null;
            /** Pep Gateway Pipe Peak Bytes */
            pep_gateway_pipe_peak_bytes: number | null;
            /** Pep Mode */
            pep_mode: ("gateway" | "distributed") | null;
            /** Pep Satellite Bytes */
            pep_satellite_bytes: number | null;
            /** Pep Satellite Retransmissions */
            pep_satellite_retransmissions: number | null;
            /** Pep Server Bytes */
            pep_server_bytes: number | null;
            /** Pep Server Retransmissions */
            pep_server_retransmissions: number | null;
            /** Pep Terminal Pipe Peak Bytes */
            pep_terminal_pipe_peak_bytes: number | null;
            /** Power Mbps Per S */
            power_mbps_per_s: number | null;
            /** Retransmissions */
            retransmissions: number | null;
            /**
             * Short Beside Long
             * @description A flow of a fixed size with a flow of another group active for its whole life.
             */
            short_beside_long: boolean | null;
            /** Start S */
            start_s: number | null;
            /** Startup Goodput Mbps */
            startup_goodput_mbps: number | null;
            /** Startup Mean Rtt Ms */
            startup_mean_rtt_ms: number | null;
            /** Startup Retransmissions */
            startup_retransmissions: number | null;
            /**
             * Startup S
             * @description null: the flow never reached 90 % of the bottleneck (all start-up).
             */
            startup_s: number | null;
            /** Steady Goodput Mbps */
            steady_goodput_mbps: number | null;
            /** Steady Mean Rtt Ms */
            steady_mean_rtt_ms: number | null;
            /** Steady Retransmissions */
            steady_retransmissions: number | null;
            /**
             * Time To First Byte Ms
             * @description A download's first packet to its first byte of data (picoquic; TCP on the client's wire).
             */
            time_to_first_byte_ms: number | null;
            /** Transport */
            transport: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * FlowSampleRow
         * @description One connection of a flow: its data sender's socket. `hop` says which
         *     connection (satlab.engine.pep.segments): `end-to-end` unless a PEP splits
         *     the flow; then one row per hop sampled, `client` (client - terminal PEP),
         *     `satellite` (with a gateway PEP alone: client - gateway PEP) and `server`
         *     (gateway PEP - server); the first of a flow's hops is the connection its
         *     client sees.
         */
        FlowSampleRow: {
            /** Bytes Acked */
            bytes_acked: number | null;
            /** Cwnd Bytes */
            cwnd_bytes: number | null;
            /** Delivery Rate Mbps */
            delivery_rate_mbps: number | null;
            /** Flow */
            flow: number;
            /** Goodput Mbps */
            goodput_mbps: number | null;
            /**
             * Hop
             * @enum {string}
             */
            hop: "end-to-end" | "client" | "satellite" | "server";
            /** Iteration */
            iteration: number;
            /** Retransmissions */
            retransmissions: number | null;
            /** Rtt Ms */
            rtt_ms: number | null;
            /** T S */
            t_s: number;
        };
        /**
         * FlowSummaryRow
         * @description One flow of one iteration, as summary.flow_summary gives it: the
         *     figures every transport has as fields, the rest (start-up and steady
         *     state, latecomers, the transport's own) in details.
         */
        FlowSummaryRow: {
            /** Bytes */
            bytes: number | null;
            /** Cc */
            cc: string | null;
            /** Details */
            details: {
                [key: string]: unknown;
            };
            /** Direction */
            direction: string | null;
            /** Download Time S */
            download_time_s: number | null;
            /** Error */
            error: string | null;
            /** Flow */
            flow: number;
            /** Goodput Mbps */
            goodput_mbps: number | null;
            /** Group */
            group: number | null;
            /** Iteration */
            iteration: number;
            /** Mean Rtt Ms */
            mean_rtt_ms: number | null;
            /** Power Mbps Per S */
            power_mbps_per_s: number | null;
            /** Retransmissions */
            retransmissions: number | null;
            /** Start S */
            start_s: number | null;
            /** Transport */
            transport: string | null;
        };
        /** GilbertElliottPacket */
        GilbertElliottPacket: {
            /**
             * Loss Bad
             * @default 1
             */
            loss_bad?: number;
            /**
             * Loss Good
             * @default 0
             */
            loss_good?: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "ge-packet";
            /** P */
            p: number;
            /** Q */
            q: number;
            /** Seed */
            seed?: number | null;
        };
        /** GilbertElliottPacket */
        "GilbertElliottPacket-Output": {
            /**
             * Loss Bad
             * @default 1
             */
            loss_bad: number;
            /**
             * Loss Good
             * @default 0
             */
            loss_good: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "ge-packet";
            /** P */
            p: number;
            /** Q */
            q: number;
            /**
             * Seed
             * @default null
             */
            seed: number | null;
        };
        /**
         * GilbertElliottTime
         * @description Gilbert-Elliott in time: the state is drawn again every step_ms; a
         *     packet sent in a bad step is lost. Give p and q (per step), or the
         *     statistics a measurement reports, from which p and q follow: the
         *     stationary bad-time fraction is p / (p + q) and a burst lasts
         *     step_ms / q on average, so q = step_ms / mean_burst_ms and
         *     p = q * loss_time_ratio / (1 - loss_time_ratio).
         */
        GilbertElliottTime: {
            /** Loss Time Ratio */
            loss_time_ratio?: number | null;
            /** Mean Burst Ms */
            mean_burst_ms?: number | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "ge-time";
            /** P */
            p?: number | null;
            /** Q */
            q?: number | null;
            /** Seed */
            seed?: number | null;
            /** Step Ms */
            step_ms: number;
        };
        /**
         * GilbertElliottTime
         * @description Gilbert-Elliott in time: the state is drawn again every step_ms; a
         *     packet sent in a bad step is lost. Give p and q (per step), or the
         *     statistics a measurement reports, from which p and q follow: the
         *     stationary bad-time fraction is p / (p + q) and a burst lasts
         *     step_ms / q on average, so q = step_ms / mean_burst_ms and
         *     p = q * loss_time_ratio / (1 - loss_time_ratio).
         */
        "GilbertElliottTime-Output": {
            /**
             * Loss Time Ratio
             * @default null
             */
            loss_time_ratio: number | null;
            /**
             * Mean Burst Ms
             * @default null
             */
            mean_burst_ms: number | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "ge-time";
            /**
             * P
             * @default null
             */
            p: number | null;
            /**
             * Q
             * @default null
             */
            q: number | null;
            /**
             * Seed
             * @default null
             */
            seed: number | null;
            /** Step Ms */
            step_ms: number;
        };
        /** HostIdentity */
        HostIdentity: {
            /** Cpu Count */
            cpu_count: number | null;
            /** Cpu Model */
            cpu_model: string | null;
            /** Host Name */
            host_name: string;
            /** Kernel */
            kernel: string;
            /** Satlab Version */
            satlab_version: string | null;
        };
        /** InstructorSignIn */
        InstructorSignIn: {
            /**
             * Token
             * @description The instructor's secret token.
             */
            token: string;
        };
        /** IntegerRange */
        IntegerRange: {
            /** Max */
            max: number;
            /** Min */
            min: number;
        };
        /**
         * ItemAttemptRow
         * @description One run of an item: a second attempt follows a first whose worker vanished mid-run.
         */
        ItemAttemptRow: {
            /** Attempt */
            attempt: number;
            /** Error */
            error: string | null;
            /** Finished At */
            finished_at: number | null;
            /** Run Id */
            run_id: string;
            /** Started At */
            started_at: number | null;
            /** Status */
            status: string;
            /** Worker */
            worker: string | null;
        };
        /**
         * IterationCapture
         * @description One packet capture of an iteration: the tool and side it captured, the
         *     file that keeps it, what it holds, and the counters of the side it
         *     captured (tshark's counts per fate equal these).
         */
        IterationCapture: {
            /**
             * Capture
             * @description The tool's capture statistics, as it prints them.
             */
            capture: {
                [key: string]: unknown;
            } | null;
            /**
             * Counters
             * @description The captured side's counters, as the tool prints them.
             */
            counters: {
                [key: string]: unknown;
            } | null;
            /** Direction */
            direction: string;
            /**
             * Interface
             * @description The capture's interface name inside the file (forward, return, sent...).
             */
            interface: string;
            /**
             * Kept As
             * @description The kept (compressed) file; null: nothing was captured.
             */
            kept_as: string | null;
            /** Max Bytes */
            max_bytes: number;
            /**
             * Name
             * @description The kept file's path in the run's directory, before compression.
             */
            name: string;
            /**
             * Secrets Embedded
             * @description Whether the QUIC flows' TLS key log is in the file.
             */
            secrets_embedded: boolean;
            /** Side */
            side: string;
            /** Snap Bytes */
            snap_bytes: number;
            /**
             * Tool
             * @description The tool that wrote it: link, lan, tunnel.0, tunnel.1.
             */
            tool: string;
        };
        /** IterationFidelity */
        IterationFidelity: {
            /** Cpu Busy Ratio */
            cpu_busy_ratio: number | null;
            /**
             * Cpu Steal Ratio
             * @description CPU time the hypervisor gave others, over the whole time.
             */
            cpu_steal_ratio: number | null;
            /** Cpu Steal Ratio Peak 1S */
            cpu_steal_ratio_peak_1s: number | null;
            /**
             * Host Kept Up
             * @description null: unknown (nothing measured the lateness).
             */
            host_kept_up: boolean | null;
            /** Load Avg 1M End */
            load_avg_1m_end: number | null;
            /** Load Avg 1M Max */
            load_avg_1m_max: number | null;
            /** Load Avg 1M Start */
            load_avg_1m_start: number | null;
            /** Measured S */
            measured_s: number;
            /** Problems */
            problems: string[];
            /**
             * Process Cpu S
             * @description CPU time of each of the run's tools, by its name (link, lan, tunnel.0, tunnel.1).
             */
            process_cpu_s: {
                [key: string]: number;
            };
            /**
             * Realtime Threads
             * @description Whether every satlink and swf-tunnel of the run forwarded on SCHED_FIFO threads, as each said when ready (null: neither ran, or a run stored before satlab recorded it).
             */
            realtime_threads: boolean | null;
            /** Runs At Once Max */
            runs_at_once_max: number | null;
            /**
             * Runs At Once Mean
             * @description Runs on the host at once, this one included (admitted by any satlab process, counted each second), over its whole time (null: a run stored before satlab counted them).
             */
            runs_at_once_mean: number | null;
            /** Satlink Cpu S */
            satlink_cpu_s: number | null;
            /** Satlink Lateness Max Ms */
            satlink_lateness_max_ms: number | null;
            /**
             * Satlink Lateness P99 Ms
             * @description How long after its due time a packet left the emulated link: a figure the verdict rests on.
             */
            satlink_lateness_p99_ms: number | null;
            /**
             * Tool Realtime
             * @description Whether each of the run's satlink and swf-tunnel processes, by its name, got SCHED_FIFO for its forwarding threads.
             */
            tool_realtime: {
                [key: string]: boolean;
            };
            /** Tunnel Cpu S */
            tunnel_cpu_s: number | null;
            /** Tunnel Lateness Max Ms */
            tunnel_lateness_max_ms: number | null;
            /**
             * Tunnel Lateness P99 Ms
             * @description How long a tunnel endpoint let a datagram wait in its socket, or a timer pass its deadline: the other figure the verdict rests on (null: no tunnel, or a run stored before the tunnel measured it).
             */
            tunnel_lateness_p99_ms: number | null;
        };
        /** IterationResult */
        IterationResult: {
            /**
             * Captures
             * @description The iteration's packet captures (scenario capture.packets); null or empty: none.
             */
            captures: components["schemas"]["IterationCapture"][] | null;
            /** Cross Traffic */
            cross_traffic: components["schemas"]["CrossTrafficResult"][] | null;
            /** @description null: no FEC tunnel. */
            fec: components["schemas"]["FecSummary"] | null;
            /** @description Whether the host kept up (absent from runs before it was recorded). */
            fidelity: components["schemas"]["IterationFidelity"] | null;
            /** Flows */
            flows: components["schemas"]["FlowResult"][];
            /** Iteration */
            iteration: number;
            /**
             * Jain Index
             * @description Jain's fairness index of the flows' goodputs (two flows or more).
             */
            jain_index: number | null;
            /** @description null: no LAN segment. */
            lan: components["schemas"]["LinkSummary"] | null;
            link: components["schemas"]["LinkSummary"] | null;
            /**
             * Pep
             * @description The split-TCP PEPs: their mode and each one's summary line (accepted, finished, failed, bytes each way); null: no PEP.
             */
            pep: {
                [key: string]: unknown;
            } | null;
            /**
             * Plan
             * @description The engine's plan of the iteration (names, addresses, buffers, tool arguments).
             */
            plan: {
                [key: string]: unknown;
            } | null;
            /**
             * Seeds
             * @description Each channel's seed, by its path.
             */
            seeds: {
                [key: string]: number;
            } | null;
            /**
             * Tcp Stack
             * @description The kernel's TCP counters of the server's and the client's namespace.
             */
            tcp_stack: {
                [key: string]: {
                    [key: string]: number | null;
                };
            } | null;
        };
        /**
         * KeptFile
         * @description A file the run kept for the researcher (a qlog, a TLS key log, a packet capture).
         */
        KeptFile: {
            /**
             * Kind
             * @enum {string}
             */
            kind: "qlog" | "keylog" | "pcapng";
            /**
             * Name
             * @description Its path in the run's directory, e.g. iteration0/flow0/client.qlog.gz.
             */
            name: string;
            /**
             * Sha256
             * @description Of the file as kept.
             */
            sha256: string;
            /**
             * Size Bytes
             * @description As kept (compressed).
             */
            size_bytes: number;
        };
        /** LabDetail */
        LabDetail: {
            /** Description */
            description: string;
            /**
             * Error
             * @description Why the preset does not load, if it does not.
             */
            error: string | null;
            /**
             * Name
             * @description What GET /api/labs/{name} and a run's `lab` take.
             */
            name: string;
            /**
             * Scenario
             * @description As validated, with every default (null if it does not load).
             */
            scenario: components["schemas"]["Scenario"] | null;
            /**
             * Text
             * @description The preset's YAML, as written.
             */
            text: string;
            /** Title */
            title: string;
        };
        /** LabPublic */
        LabPublic: {
            /** Description */
            description: string;
            /**
             * Error
             * @description Why the preset does not load, if it does not.
             */
            error: string | null;
            /**
             * Name
             * @description What GET /api/labs/{name} and a run's `lab` take.
             */
            name: string;
            /** Title */
            title: string;
        };
        /** LabsPublic */
        LabsPublic: {
            /** Count */
            count: number;
            /** Data */
            data: components["schemas"]["LabPublic"][];
        };
        /**
         * Lan
         * @description The segment between client and terminal (e.g. Wi-Fi): its channel
         *     applies to both directions, each with its own seed.
         */
        Lan: {
            /**
             * Channel
             * @default {
             *       "model": "perfect",
             *       "seed": null
             *     }
             */
            channel: components["schemas"]["Perfect-Output"] | components["schemas"]["Bernoulli-Output"] | components["schemas"]["GilbertElliottPacket-Output"] | components["schemas"]["GilbertElliottTime-Output"] | components["schemas"]["Outage-Output"] | components["schemas"]["Trace-Output"];
            /**
             * Delay Ms
             * @default 0
             */
            delay_ms: number;
            /**
             * Rate Mbps
             * @default null
             */
            rate_mbps: number | null;
        };
        /** Limit */
        Limit: {
            /** Description */
            description: string;
            /** Name */
            name: string;
            /** Value */
            value: number;
        };
        /** LinkBackend */
        LinkBackend: {
            /** Available */
            available: boolean;
            /**
             * Name
             * @description satlink or netem.
             */
            name: string;
            /**
             * Problem
             * @description Why it cannot run here, when it cannot.
             */
            problem: string | null;
        };
        /**
         * LinkDirectionCounters
         * @description One direction of a link at the end of an iteration (satlink's summary
         *     counters; netem has only some, and counts its drops in `drops`).
         */
        LinkDirectionCounters: {
            /** Bytes In */
            bytes_in: number | null;
            /** Bytes Out */
            bytes_out: number | null;
            /** Drops */
            drops: number | null;
            /** Drops Aqm */
            drops_aqm: number | null;
            /** Drops Buffer */
            drops_buffer: number | null;
            /** Drops Channel */
            drops_channel: number | null;
            /** Drops Overflow */
            drops_overflow: number | null;
            /** In Flight Bytes */
            in_flight_bytes: number | null;
            /** In Flight Packets */
            in_flight_packets: number | null;
            lateness_ms: components["schemas"]["Percentiles"] | null;
            /** Packets In */
            packets_in: number | null;
            /** Packets Out */
            packets_out: number | null;
            /** Queue Bytes */
            queue_bytes: number | null;
            /** Write Errors */
            write_errors: number | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * LinkSampleRow
         * @description One direction of the satellite link or of the LAN (netem fills only
         *     some counters, and counts its drops in `drops` only).
         */
        LinkSampleRow: {
            /** Bytes In */
            bytes_in: number | null;
            /** Bytes Out */
            bytes_out: number | null;
            /**
             * Direction
             * @enum {string}
             */
            direction: "forward" | "return" | "down" | "up";
            /** Drops */
            drops: number | null;
            /** Drops Aqm */
            drops_aqm: number | null;
            /** Drops Buffer */
            drops_buffer: number | null;
            /** Drops Channel */
            drops_channel: number | null;
            /** Drops Overflow */
            drops_overflow: number | null;
            /** In Flight Packets */
            in_flight_packets: number | null;
            /** Iteration */
            iteration: number;
            /** Lateness Max Ms */
            lateness_max_ms: number | null;
            /** Lateness P99 Ms */
            lateness_p99_ms: number | null;
            /**
             * Link
             * @enum {string}
             */
            link: "satellite" | "lan";
            /** Packets In */
            packets_in: number | null;
            /** Packets Out */
            packets_out: number | null;
            /** Queue Bytes */
            queue_bytes: number | null;
            /** T S */
            t_s: number;
        };
        /** LinkSummary */
        LinkSummary: {
            forward: components["schemas"]["LinkDirectionCounters"] | null;
            return: components["schemas"]["LinkDirectionCounters"] | null;
        };
        /** Me */
        Me: {
            /** Id */
            id: string | null;
            /**
             * Key
             * @description A student's personal key: what signing in again with their name from another browser needs (note it).
             */
            key: string | null;
            /** Name */
            name: string | null;
            /**
             * Open Access
             * @description True: this server needs no sign-in (bound to loopback, no token).
             */
            open_access: boolean;
            /**
             * Role
             * @enum {string}
             */
            role: "instructor" | "student" | "anonymous";
        };
        /** Message */
        Message: {
            /** Message */
            message: string;
        };
        /**
         * MetricFigures
         * @description Every value satlab measured of one metric for one configuration.
         */
        MetricFigures: {
            /**
             * At Least
             * @description The figures a censored value could raise: each is the least it can be (absent from older reports).
             * @default []
             */
            at_least: ("median" | "q1" | "q3" | "min" | "max")[];
            /**
             * At Most
             * @description For each of at_least, the most it can be; null: no bound (absent from older reports).
             * @default {}
             */
            at_most: {
                [key: string]: number | null;
            };
            /**
             * Bounds
             * @description The timed-out runs' censored values: each at least this; n counts them (absent from older reports).
             * @default []
             */
            bounds: number[];
            /**
             * Censored
             * @description How many bounds (absent from older reports).
             */
            censored: number | null;
            /** Max */
            max: number | null;
            /** Median */
            median: number | null;
            /** Min */
            min: number | null;
            /** N */
            n: number;
            /** Q1 */
            q1: number | null;
            /** Q3 */
            q3: number | null;
            /**
             * Runs
             * @description Runs that gave the values; fewer than n for a pooled metric (absent from older reports).
             */
            runs: number | null;
            /** Std */
            std: number | null;
            /** Values */
            values: number[];
        };
        /** Outage */
        Outage: {
            /** Duration Ms */
            duration_ms: number;
            /**
             * Jitter Ms
             * @default 0
             */
            jitter_ms?: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "outage";
            /** Period Ms */
            period_ms: number;
            /** Phase Ms */
            phase_ms?: number | null;
            /** Seed */
            seed?: number | null;
        };
        /** Outage */
        "Outage-Output": {
            /** Duration Ms */
            duration_ms: number;
            /**
             * Jitter Ms
             * @default 0
             */
            jitter_ms: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "outage";
            /** Period Ms */
            period_ms: number;
            /**
             * Phase Ms
             * @default null
             */
            phase_ms: number | null;
            /**
             * Seed
             * @default null
             */
            seed: number | null;
        };
        /**
         * Pep
         * @description A split-TCP PEP: absent or null in the scenario, none.
         */
        Pep: {
            ground: components["schemas"]["PepGround"];
            /**
             * Mode
             * @enum {string}
             */
            mode: "gateway" | "distributed";
            /**
             * Pipe Bytes
             * @default 1048576
             */
            pipe_bytes: number;
            satellite: components["schemas"]["PepSatellite"];
        };
        /**
         * PepGround
         * @description The PEPs' sockets toward the end hosts.
         */
        PepGround: {
            /**
             * Cc
             * @default cubic
             */
            cc: string;
            /**
             * Rcvbuf Bytes
             * @default null
             */
            rcvbuf_bytes: number | null;
            /**
             * Sndbuf Bytes
             * @default null
             */
            sndbuf_bytes: number | null;
        };
        /**
         * PepSampleRow
         * @description One flow split by PEPs (satlab.engine.pep.metrics): per segment, the
         *     bytes its data sender got acknowledged (or, where an end host sends, the
         *     PEP received) and the packets it resent, cumulative; per PEP, what it
         *     holds of the data's direction (its receiving socket's unread bytes, its
         *     pipes, its sending socket's unacknowledged bytes) and the pipes' part.
         *     A gateway PEP alone has no client segment and no terminal PEP (null).
         */
        PepSampleRow: {
            /** Client Bytes */
            client_bytes: number | null;
            /** Client Retransmissions */
            client_retransmissions: number | null;
            /** Flow */
            flow: number;
            /** Gateway Buffer Bytes */
            gateway_buffer_bytes: number | null;
            /** Gateway Pipe Bytes */
            gateway_pipe_bytes: number | null;
            /** Iteration */
            iteration: number;
            /** Satellite Bytes */
            satellite_bytes: number | null;
            /** Satellite Retransmissions */
            satellite_retransmissions: number | null;
            /** Server Bytes */
            server_bytes: number | null;
            /** Server Retransmissions */
            server_retransmissions: number | null;
            /** T S */
            t_s: number;
            /** Terminal Buffer Bytes */
            terminal_buffer_bytes: number | null;
            /** Terminal Pipe Bytes */
            terminal_pipe_bytes: number | null;
        };
        /**
         * PepSatellite
         * @description The PEPs' sockets on the connection across the satellite: the terminal
         *     PEP's connections to the gateway PEP and the gateway PEP's accepted ones
         *     (in gateway mode, the client's own connections).
         */
        PepSatellite: {
            /**
             * Cc
             * @default cubic
             */
            cc: string;
            /**
             * Fast Open
             * @default off
             * @enum {string}
             */
            fast_open: "off" | "cookie" | "no-cookie";
            /**
             * Initcwnd Packets
             * @default null
             */
            initcwnd_packets: number | null;
            /**
             * Initrwnd Packets
             * @default null
             */
            initrwnd_packets: number | null;
            /**
             * Rcvbuf Bytes
             * @default null
             */
            rcvbuf_bytes: number | null;
            /**
             * Sndbuf Bytes
             * @default null
             */
            sndbuf_bytes: number | null;
        };
        /**
         * Percentiles
         * @description A histogram's summary, in the unit its name gives (ms).
         */
        Percentiles: {
            /** Count */
            count: number | null;
            /** Max */
            max: number | null;
            /** P50 */
            p50: number | null;
            /** P99 */
            p99: number | null;
        };
        /** Perfect */
        Perfect: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "perfect";
            /** Seed */
            seed?: number | null;
        };
        /** Perfect */
        "Perfect-Output": {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "perfect";
            /**
             * Seed
             * @default null
             */
            seed: number | null;
        };
        /**
         * Problem
         * @description One reason of a refusal (satlab.api.errors).
         */
        Problem: {
            /**
             * Loc
             * @description The field it is about: ["body", "flows", "0", "size_bytes"], ["query", "offset"]; ["request"]: the request as a whole.
             */
            loc: (string | number)[];
            /**
             * Msg
             * @description A sentence, starting with the field's dotted path when it names one.
             */
            msg: string;
            /**
             * Type
             * @description What kind of refusal: the status's name (not_found, too_many_requests...) or the check's.
             */
            type: string;
        };
        /**
         * ProvenanceDifference
         * @description Runs of a campaign made with another satlab, other tools or another kernel than its first run.
         */
        ProvenanceDifference: {
            /** Campaign Id */
            campaign_id: string;
            /**
             * Differences
             * @description Field of the provenance -> [the first run's, theirs].
             */
            differences: {
                [key: string]: string[];
            };
            /** Runs */
            runs: string[];
            /**
             * Worker
             * @description The worker that ran them; null: the server's own process.
             */
            worker: string | null;
        };
        /**
         * PruneRequest
         * @description What to drop; each left out: as the retention quotas say.
         */
        PruneRequest: {
            /**
             * Audit Rows
             * @description Keep this many of the newest audit entries. Default: audit_retention_rows.
             */
            audit_rows?: number | null;
            /**
             * Samples Older Than Days
             * @description Drop the samples of runs finished longer ago than this (their summaries stay); 0: of every finished run. Default: retention_days.
             */
            samples_older_than_days?: number | null;
        };
        /** Pruned */
        Pruned: {
            /**
             * Audit Rows Dropped
             * @description Audit entries dropped, the oldest.
             */
            audit_rows_dropped: number;
            /**
             * Database Bytes
             * @description What the database's pages in use take now.
             */
            database_bytes: number;
            /**
             * Max Database Bytes
             * @description Its limit: new runs are refused (507) at or above it.
             */
            max_database_bytes: number;
            /**
             * Pruned Runs
             * @description Runs whose samples were dropped (their summaries stay).
             */
            pruned_runs: number;
        };
        /** PublishedFigurePublic */
        PublishedFigurePublic: {
            /** Configuration */
            configuration: {
                [key: string]: string;
            };
            /**
             * Metric
             * @description Its unit in its name (download_time_s).
             */
            metric: string;
            /**
             * Source
             * @description Where the study gives it: Table II, Figure 3.
             */
            source: string;
            /**
             * Statistic
             * @enum {string}
             */
            statistic: "median" | "mean" | "std";
            /** Value */
            value: number;
        };
        /** QueuePlace */
        QueuePlace: {
            /**
             * Estimated Start S
             * @description About when it starts, in seconds from now (null until a run has finished).
             */
            estimated_start_s: number | null;
            /**
             * Queue Position
             * @description 1: the next run to start; null once it runs.
             */
            queue_position: number | null;
        };
        /**
         * QuickRunPublic
         * @description The smoke run: a few configurations that finish fast, few iterations.
         */
        QuickRunPublic: {
            /** Iterations */
            iterations: number;
            /** Only */
            only: {
                [key: string]: string[];
            };
        };
        /** Quota */
        Quota: {
            /**
             * Ceiling
             * @description The most the instructor may set: SATLAB_CEILING_<NAME>, else the table's.
             */
            ceiling: number;
            /**
             * Default
             * @description Its value until the instructor changes it: SATLAB_LIMIT_<NAME>, else the table's.
             */
            default: number;
            /** Description */
            description: string;
            /** Name */
            name: string;
            /** Value */
            value: number;
        };
        /**
         * RateTrace
         * @description The rate in force over time (satlink only): file has lines "t_ms
         *     rate_mbps" from t_ms 0, the trace starting over every trace_period_ms if
         *     > 0. The direction's rate_mbps stays its nominal rate (the BDP, a buffer
         *     in BDP, link utilisation).
         */
        RateTrace: {
            /**
             * File
             * Format: path
             */
            file: string;
            /**
             * Trace Period Ms
             * @default 0
             */
            trace_period_ms: number;
        };
        /**
         * Refused
         * @description Every refusal's body (4xx, 507): one problem per reason.
         */
        Refused: {
            /** Detail */
            detail: components["schemas"]["Problem"][];
        };
        /**
         * ReportCampaign
         * @description A study run the report covers.
         */
        ReportCampaign: {
            /** Campaign Id */
            campaign_id: string;
            /** Created At */
            created_at: number;
            /** Finished At */
            finished_at: number | null;
            /** Name */
            name: string;
            progress: components["schemas"]["CampaignProgress"];
            /** @description The campaign file, as validated. */
            spec: components["schemas"]["CampaignSpec"];
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "done" | "cancelled";
            /** Study Quick */
            study_quick: boolean;
        };
        /**
         * ReportCheck
         * @description One of the study's conclusions: every comparison's ratio of medians,
         *     or their difference (`compare`), or without a denominator the median
         *     itself, must be >= at_least and <= at_most.
         */
        ReportCheck: {
            /** At Least */
            at_least: number | null;
            /** At Most */
            at_most: number | null;
            /**
             * Compare
             * @description What the bounds apply to: the medians' ratio, their difference (in the metric's unit), or the numerator's median (absent from older reports).
             */
            compare: ("ratio" | "difference" | "value") | null;
            /** Comparisons */
            comparisons: components["schemas"]["CheckComparison"][];
            /** @description The recipe's (absent from older reports). */
            explanation: components["schemas"]["Explanation"] | null;
            /** Holds */
            holds: boolean | null;
            /** Id */
            id: string;
            /** Metric */
            metric: string;
            /**
             * Reason
             * @description Where the bounds come from (absent from older reports).
             */
            reason: string | null;
            /** Statement */
            statement: string;
        };
        /**
         * ReportConfiguration
         * @description What satlab measured for one configuration, per metric. Reports of the
         *     first format have one metric's figures (MetricFigures' fields) at the top
         *     instead of `metrics`.
         */
        ReportConfiguration: {
            /** Configuration */
            configuration: {
                [key: string]: string;
            };
            /**
             * Diagnostics
             * @description Median of each diagnostic figure of its runs.
             */
            diagnostics: {
                [key: string]: number;
            } | null;
            /** Failed */
            failed: number;
            /**
             * Flags
             * @description "host could not keep up (k of n runs)" when host_not_kept_up > 0 (absent from older reports).
             * @default []
             */
            flags: string[];
            /**
             * Host Not Kept Up
             * @description Its runs whose host did not keep up (satlink late): they measure the host too (absent from older reports).
             */
            host_not_kept_up: number | null;
            /** Max */
            max: number | null;
            /** Median */
            median: number | null;
            /**
             * Metrics
             * @description Absent from reports of the first format.
             */
            metrics: {
                [key: string]: components["schemas"]["MetricFigures"];
            } | null;
            /** Min */
            min: number | null;
            /** N */
            n: number | null;
            /** Q1 */
            q1: number | null;
            /** Q3 */
            q3: number | null;
            /** Std */
            std: number | null;
            /**
             * Timed Out
             * @description Of the failed, those the time limit stopped (absent from older reports).
             */
            timed_out: number | null;
            /** Values */
            values: number[] | null;
        };
        /**
         * ReportRow
         * @description One published figure beside satlab's (null where satlab has no value yet). Fields marked
         *     "absent from older reports" are left out of reports made before they existed.
         */
        ReportRow: {
            /**
             * Band
             * @description The band a median must be in; null for other statistics.
             */
            band: string | null;
            /** Band Reason */
            band_reason: string | null;
            /** Configuration */
            configuration: {
                [key: string]: string;
            };
            /** @description The recipe's, where one selects this configuration (absent from older reports). */
            explanation: components["schemas"]["Explanation"] | null;
            /** Failed */
            failed: number;
            /**
             * Flags
             * @description What weakens the figure: "host could not keep up (k of n runs)" when some of its runs' hosts were late (absent from older reports).
             * @default []
             */
            flags: string[];
            /**
             * In Band
             * @description null: not measured, not judged (a spread), or left open by a timed-out run (satlab in satlab_at_least).
             */
            in_band: boolean | null;
            /** Metric */
            metric: string;
            /**
             * N
             * @description Values: the runs that gave one, or for a pooled metric (one value per flow) the flows of those runs.
             */
            n: number;
            /**
             * Published
             * @description null: a figure satlab measured that the study did not publish.
             */
            published: number | null;
            /**
             * Published Std
             * @description Beside a median: the standard deviation the study gives for it (absent from older reports).
             */
            published_std: number | null;
            /** Q1 */
            q1: number | null;
            /** Q3 */
            q3: number | null;
            /**
             * Ratio
             * @description satlab / published.
             */
            ratio: number | null;
            /**
             * Runs
             * @description Runs that gave a value (absent from older reports).
             */
            runs: number | null;
            /**
             * Satlab
             * @description satlab's figure of the same statistic (its median for a median).
             */
            satlab: number | null;
            /**
             * Satlab At Least
             * @description satlab's figures a longer time of a timed-out run could raise: each is the least it can be (absent from older reports).
             * @default []
             */
            satlab_at_least: ("satlab" | "q1" | "q3")[];
            /**
             * Satlab At Most
             * @description With satlab in satlab_at_least: the most it can be; null: no bound (absent from older reports).
             */
            satlab_at_most: number | null;
            /**
             * Satlab Std
             * @description Beside a median: the sample standard deviation of satlab's values (absent from older reports).
             */
            satlab_std: number | null;
            /** Source */
            source: string;
            /**
             * Statistic
             * @enum {string}
             */
            statistic: "median" | "mean" | "std";
            /**
             * Timed Out
             * @description Of the failed, the runs the time limit stopped: each of their download times counts at its bound (absent from older reports).
             */
            timed_out: number | null;
        };
        /** ReportSummary */
        ReportSummary: {
            /** Checks Failed */
            checks_failed: number;
            /** Checks Held */
            checks_held: number;
            /** Checks Unknown */
            checks_unknown: number;
            /** In Band */
            in_band: number;
            /** Measured */
            measured: number;
            /** Out Of Band */
            out_of_band: number;
            /** Rows */
            rows: number;
        };
        /**
         * RunArtifacts
         * @description The files a run kept, within its cap on their bytes.
         */
        RunArtifacts: {
            /** Files */
            files: components["schemas"]["KeptFile"][];
            /**
             * Incomplete
             * @description Why each kept file lacks records (a capture that reached its cap), a sentence each.
             */
            incomplete: string[];
            /** Max Bytes */
            max_bytes: number;
            /**
             * Refused
             * @description Why each file that would have passed the cap was not kept.
             */
            refused: string[];
            /** Used Bytes */
            used_bytes: number;
        };
        /**
         * RunCreate
         * @description A run of a preset (`lab`, with optional `set` overrides) or of a whole
         *     `scenario`, and the page that queues it (`page`, `sheet`), which the run
         *     records as its origin.
         */
        RunCreate: {
            /**
             * Lab
             * @description A lab's name, as GET /api/labs lists them.
             */
            lab?: string | null;
            /**
             * Page
             * @description The page that queues it: experiments (the console's run form) or sheet (a lab sheet's run widget, named by `sheet`). Left out: the run's origin is api.
             */
            page?: ("experiments" | "sheet") | null;
            /**
             * Scenario
             * @description A scenario, as in labs/*.yaml.
             */
            scenario?: {
                [key: string]: unknown;
            } | null;
            /**
             * Set
             * @description dotted.path=value overrides, e.g. flows.0.cc=bbr.
             * @default []
             */
            set?: string[];
            /**
             * Sheet
             * @description With page sheet: the lab sheet's id (labs/sheets/NN-<id>.md).
             */
            sheet?: string | null;
        };
        /** RunFidelity */
        RunFidelity: {
            calibration: components["schemas"]["CalibrationSummary"] | null;
            /** Cpu Busy Ratio */
            cpu_busy_ratio: number | null;
            /**
             * Cpu Steal Ratio
             * @description CPU time the hypervisor gave others, over the whole time.
             */
            cpu_steal_ratio: number | null;
            /** Cpu Steal Ratio Peak 1S */
            cpu_steal_ratio_peak_1s: number | null;
            host: components["schemas"]["HostIdentity"];
            /**
             * Host Kept Up
             * @description null: unknown (nothing measured the lateness).
             */
            host_kept_up: boolean | null;
            /** Iterations */
            iterations: number;
            /**
             * Lateness P99 Limit Ms
             * @description The limit of either lateness p99 (runs stored before the tunnel measured its own: of satlink's).
             */
            lateness_p99_limit_ms: number;
            /** Load Avg 1M End */
            load_avg_1m_end: number | null;
            /** Load Avg 1M Max */
            load_avg_1m_max: number | null;
            /** Load Avg 1M Start */
            load_avg_1m_start: number | null;
            /** Measured S */
            measured_s: number;
            /** Problems */
            problems: string[];
            /**
             * Realtime Threads
             * @description Whether every satlink and swf-tunnel of the run forwarded on SCHED_FIFO threads, as each said when ready (null: neither ran, or a run stored before satlab recorded it).
             */
            realtime_threads: boolean | null;
            /**
             * Run Kind
             * @enum {string}
             */
            run_kind: "kernel_tcp" | "tunnel" | "quic";
            /** Runs At Once Max */
            runs_at_once_max: number | null;
            /**
             * Runs At Once Mean
             * @description Runs on the host at once, this one included (admitted by any satlab process, counted each second), over its whole time (null: a run stored before satlab counted them).
             */
            runs_at_once_mean: number | null;
            /** Satlink Cpu S */
            satlink_cpu_s: number | null;
            /** Satlink Lateness Max Ms */
            satlink_lateness_max_ms: number | null;
            /**
             * Satlink Lateness P99 Ms
             * @description How long after its due time a packet left the emulated link: a figure the verdict rests on.
             */
            satlink_lateness_p99_ms: number | null;
            /** Tunnel Cpu S */
            tunnel_cpu_s: number | null;
            /** Tunnel Lateness Max Ms */
            tunnel_lateness_max_ms: number | null;
            /**
             * Tunnel Lateness P99 Ms
             * @description How long a tunnel endpoint let a datagram wait in its socket, or a timer pass its deadline: the other figure the verdict rests on (null: no tunnel, or a run stored before the tunnel measured it).
             */
            tunnel_lateness_p99_ms: number | null;
        };
        /**
         * RunOrigin
         * @description Where a run came from: a lone run's page or tool, recorded when it was
         *     queued, or its campaign (a study's campaign: its study).
         */
        RunOrigin: {
            /**
             * Kind
             * @description experiments: the console's run form; sheet: a lab sheet's run widget; api: a request that named no page (POST /api/runs without `page`); command-line: `satlab run`; campaign or study: a run of one.
             * @enum {string}
             */
            kind: "experiments" | "sheet" | "api" | "command-line" | "campaign" | "study";
            /**
             * Lab
             * @description The preset it ran (GET /api/labs); null: a scenario of its own.
             */
            lab: string | null;
            /**
             * Name
             * @description The lab sheet's id, the campaign's name or the study's id; null for the other kinds.
             */
            name: string | null;
        };
        /**
         * RunOwner
         * @description Who queued a run: its own owner, else its campaign's.
         */
        RunOwner: {
            /**
             * Id
             * @description "instructor", "local" (whoever reaches a server without sign-in) or a student's id (GET /api/class/students).
             */
            id: string;
            /**
             * Name
             * @description As a person reads it: the student's name in the class ("a removed student" and their id, once removed), "instructor" or "this machine's user".
             */
            name: string;
        };
        /**
         * RunPublic
         * @description A whole run (its per-flow summaries are in result.flows).
         */
        RunPublic: {
            /**
             * Attempt
             * @description Of its campaign item: 2 when the first attempt's worker vanished mid-run (that run's error says so).
             * @default 1
             */
            attempt: number;
            /** Campaign Id */
            campaign_id: string | null;
            /**
             * Created At
             * @description Unix time, seconds.
             */
            created_at: number;
            /** Error */
            error: string | null;
            /**
             * Finished At
             * @description Unix time, seconds.
             */
            finished_at: number | null;
            /**
             * Host Kept Up
             * @description Its fidelity verdict: whether the host kept up with the emulated path (the run's result.fidelity says why); null: unknown, or not finished.
             */
            host_kept_up: boolean | null;
            /** Item Index */
            item_index: number | null;
            /**
             * Name
             * @description The scenario's name (the lab's, for a lab).
             */
            name: string;
            /** @description Where it came from; null: not recorded (a run queued before satlab recorded it). */
            origin: components["schemas"]["RunOrigin"] | null;
            /** @description Who queued it. null: nobody signed in (the command line); to a student, also another's run that the instructor shared. */
            owner: components["schemas"]["RunOwner"] | null;
            /**
             * Provenance
             * @description Versions of the kernel, satlab and tools; host state.
             */
            provenance: {
                [key: string]: unknown;
            };
            /** @description Per-flow and per-iteration summaries, once finished. */
            result: components["schemas"]["RunResult"] | null;
            /** Run Id */
            run_id: string;
            /** @description A scenario, as in labs/*.yaml, with every default filled in. */
            scenario: components["schemas"]["Scenario"];
            /**
             * Shared
             * @description The instructor shows it to the class (POST /api/runs/{id}/share).
             */
            shared: boolean;
            /**
             * Started At
             * @description Unix time, seconds.
             */
            started_at: number | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "done" | "failed" | "cancelled";
            /**
             * Worker
             * @description The `satlab worker` that ran it (GET /api/workers); null: the server's own process.
             */
            worker: string | null;
        };
        /**
         * RunResult
         * @description The engine's result: the run's `result`, and its stream's last event.
         */
        RunResult: {
            /** @description The files the run kept (null: the scenario keeps none; absent from older runs). */
            artifacts: components["schemas"]["RunArtifacts"] | null;
            /** Error */
            error: string | null;
            /** @description Whether the host kept up with the run, and who measured (absent from runs before it was recorded; null for a run that never started). */
            fidelity: components["schemas"]["RunFidelity"] | null;
            /** Flows */
            flows: components["schemas"]["FlowResult"][];
            /** Iterations */
            iterations: components["schemas"]["IterationResult"][];
            /** Run Id */
            run_id: string;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "done" | "failed" | "cancelled";
            /** @description Set when its time limit stopped the run (a censored time, not a broken path; absent from older runs). */
            timed_out: components["schemas"]["TimedOut"] | null;
        };
        /**
         * RunSnapshotEvent
         * @description The first message of a run's stream: the run as it is now.
         */
        RunSnapshotEvent: {
            run: components["schemas"]["RunPublic"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "run";
        };
        /**
         * RunStatus
         * @enum {string}
         */
        RunStatus: "queued" | "running" | "done" | "failed" | "cancelled";
        RunStreamEvent: components["schemas"]["RunSnapshotEvent"] | components["schemas"]["StateEvent"] | components["schemas"]["SampleEvent"] | components["schemas"]["ErrorEvent"] | components["schemas"]["SummaryEvent"];
        /** RunSummary */
        RunSummary: {
            /** Campaign Id */
            campaign_id: string | null;
            /**
             * Created At
             * @description Unix time, seconds.
             */
            created_at: number;
            /** Error */
            error: string | null;
            /**
             * Finished At
             * @description Unix time, seconds.
             */
            finished_at: number | null;
            /**
             * Flows
             * @description Per-flow summaries (empty until the run ends).
             */
            flows: components["schemas"]["FlowSummaryRow"][];
            /**
             * Host Kept Up
             * @description Its fidelity verdict: whether the host kept up with the emulated path (the run's result.fidelity says why); null: unknown, or not finished.
             */
            host_kept_up: boolean | null;
            /** Item Index */
            item_index: number | null;
            /**
             * Name
             * @description The scenario's name (the lab's, for a lab).
             */
            name: string;
            /** @description Where it came from; null: not recorded (a run queued before satlab recorded it). */
            origin: components["schemas"]["RunOrigin"] | null;
            /** @description Who queued it. null: nobody signed in (the command line); to a student, also another's run that the instructor shared. */
            owner: components["schemas"]["RunOwner"] | null;
            /** Run Id */
            run_id: string;
            /**
             * Shared
             * @description The instructor shows it to the class (POST /api/runs/{id}/share).
             */
            shared: boolean;
            /**
             * Started At
             * @description Unix time, seconds.
             */
            started_at: number | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "done" | "failed" | "cancelled";
            /** @description A failed run its time limit stopped: what each flow of that iteration had taken (its result.timed_out). */
            timed_out: components["schemas"]["TimedOut"] | null;
        };
        /**
         * RunTable
         * @description A table of one run, by the name the API's csv/{kind} and `satlab export KIND RUN_ID` give it.
         * @enum {string}
         */
        RunTable: "summary" | "flow-samples" | "link-samples" | "tunnel-samples" | "pep-samples";
        /** RunsPublic */
        RunsPublic: {
            /** Count */
            count: number;
            /** Data */
            data: components["schemas"]["RunSummary"][];
        };
        /**
         * SampleEvent
         * @description Ten a second while the flows run (and, through PEPs, while they see their connections end).
         */
        SampleEvent: {
            /**
             * Campaign Id
             * @default null
             */
            campaign_id: string | null;
            /** Cross Traffic */
            cross_traffic: components["schemas"]["CrossTrafficState"][] | null;
            /** Flows */
            flows: components["schemas"]["FlowSampleRow"][];
            /** Iteration */
            iteration: number;
            /** Links */
            links: components["schemas"]["LinkSampleRow"][];
            /** Pep */
            pep: components["schemas"]["PepSampleRow"][];
            /** Run Id */
            run_id: string;
            /**
             * T S
             * @description Seconds since the iteration's first flow could start.
             */
            t_s: number;
            /** Tunnel */
            tunnel: components["schemas"]["TunnelSampleRow"][];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "sample";
        };
        /**
         * SampleRows
         * @description What one sample event stores, or every sample of a run, by kind.
         */
        SampleRows: {
            /** Flows */
            flows: components["schemas"]["FlowSampleRow"][];
            /** Links */
            links: components["schemas"]["LinkSampleRow"][];
            /** Pep */
            pep: components["schemas"]["PepSampleRow"][];
            /** Tunnel */
            tunnel: components["schemas"]["TunnelSampleRow"][];
        };
        /** SatellitePath */
        SatellitePath: {
            forward: components["schemas"]["Direction"];
            /** @default null */
            lan: components["schemas"]["Lan"] | null;
            /**
             * Link Backend
             * @default satlink
             * @enum {string}
             */
            link_backend: "satlink" | "netem";
            /**
             * Loss Rule
             * @default overlap
             * @enum {string}
             */
            loss_rule: "overlap" | "start";
            return: components["schemas"]["Direction"];
        };
        /** Scenario */
        Scenario: {
            capture: components["schemas"]["Capture"];
            /** Cross Traffic */
            cross_traffic: components["schemas"]["CrossTraffic"][];
            /**
             * Description
             * @default
             */
            description: string;
            /** Flows */
            flows: components["schemas"]["FlowGroup"][];
            /**
             * Iterations
             * @default 1
             */
            iterations: number;
            /**
             * Name
             * @default unnamed
             */
            name: string;
            path: components["schemas"]["SatellitePath"];
            /** @default null */
            pep: components["schemas"]["Pep"] | null;
            /**
             * Seed
             * @default 1
             */
            seed: number;
            /**
             * Tcp Buffer Bytes
             * @default null
             */
            tcp_buffer_bytes: number | null;
            /** @default null */
            tcp_stack: components["schemas"]["TcpStack"] | null;
            /** @default null */
            tunnel: components["schemas"]["Tunnel"] | null;
        };
        /** StateEvent */
        StateEvent: {
            /**
             * Campaign Id
             * @default null
             */
            campaign_id: string | null;
            /**
             * Iteration
             * @description Absent from the run's own states.
             * @default null
             */
            iteration: number | null;
            /** Run Id */
            run_id: string;
            /**
             * State
             * @description queued, started, an iteration's steps (building, running, collecting...), then done, failed or cancelled.
             */
            state: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "state";
        };
        /** StudentRename */
        StudentRename: {
            /**
             * Name
             * @description How the instructor sees you: printable text without < or >, at most max_name_chars characters; one student whatever its case.
             */
            name: string;
        };
        /** StudentRow */
        StudentRow: {
            /** Joined At */
            joined_at: number;
            /** Key */
            key: string;
            /** Name */
            name: string;
            /** Runs */
            runs: number;
            /** Student Id */
            student_id: string;
        };
        /** StudentSignIn */
        StudentSignIn: {
            /**
             * Class Code
             * @description The code on the instructor's screen.
             */
            class_code: string;
            /**
             * Key
             * @description Your personal key, to sign in again with your name from another browser (this browser keeps it; the instructor's page shows it).
             */
            key?: string | null;
            /**
             * Name
             * @description How the instructor sees you: printable text without < or >, at most max_name_chars characters; one student whatever its case.
             */
            name: string;
        };
        /** StudiesPublic */
        StudiesPublic: {
            /** Count */
            count: number;
            /** Data */
            data: components["schemas"]["StudyPublic"][];
        };
        /**
         * StudyConfigurationPublic
         * @description One configuration of a study run.
         */
        StudyConfigurationPublic: {
            /**
             * Experiment
             * @description Its experiment's name; "" in a study without experiments.
             */
            experiment: string;
            /**
             * Iterations
             * @description Its runs in the study run: its experiment's iterations (the quick run's in quick_configurations).
             */
            iterations: number;
            /**
             * Levels
             * @description What names it, as reports and published figures do.
             */
            levels: {
                [key: string]: string;
            };
            /**
             * Overrides
             * @description What it sets in the base scenario: dotted path -> value.
             */
            overrides: {
                [key: string]: unknown;
            };
        };
        /** StudyDetail */
        StudyDetail: {
            /**
             * Axes
             * @description Axis -> its levels, in order.
             */
            axes: {
                [key: string]: string[];
            };
            /** Checks */
            checks: components["schemas"]["CheckStatement"][];
            /** Citation */
            citation: string;
            /**
             * Configurations
             * @description Every configuration of a full run, in the order its campaign numbers them; a run of a selection (`only`) runs those whose experiment and levels it selects.
             */
            configurations: components["schemas"]["StudyConfigurationPublic"][];
            /**
             * Experiments
             * @description Its experiments, by name, in order; none: the study is one experiment over every axis.
             */
            experiments: {
                [key: string]: components["schemas"]["ExperimentPublic"];
            };
            /** Has Shipped Report */
            has_shipped_report: boolean;
            /** Id */
            id: string;
            /**
             * Iterations
             * @description Of a full run.
             */
            iterations: number;
            /**
             * Metrics
             * @description The metrics the study compares, each with its unit in its name.
             */
            metrics: string[];
            /**
             * Parallel
             * @description Runs at once.
             */
            parallel: number;
            /** Published */
            published: components["schemas"]["PublishedFigurePublic"][];
            quick: components["schemas"]["QuickRunPublic"];
            /**
             * Quick Configurations
             * @description Those of the quick run.
             */
            quick_configurations: components["schemas"]["StudyConfigurationPublic"][];
            /** @description The report shipped with the recipe (report.json). */
            shipped_report: components["schemas"]["StudyReport"] | null;
            /**
             * Summary
             * @description What the study found, in a paragraph.
             */
            summary: string;
            /** Title */
            title: string;
            /** Url */
            url: string | null;
        };
        /**
         * StudyPublic
         * @description A study recipe (labs/studies/<id>/).
         */
        StudyPublic: {
            /**
             * Axes
             * @description Axis -> its levels, in order.
             */
            axes: {
                [key: string]: string[];
            };
            /** Checks */
            checks: components["schemas"]["CheckStatement"][];
            /** Citation */
            citation: string;
            /**
             * Configurations
             * @description Every configuration of a full run, in the order its campaign numbers them; a run of a selection (`only`) runs those whose experiment and levels it selects.
             */
            configurations: components["schemas"]["StudyConfigurationPublic"][];
            /**
             * Experiments
             * @description Its experiments, by name, in order; none: the study is one experiment over every axis.
             */
            experiments: {
                [key: string]: components["schemas"]["ExperimentPublic"];
            };
            /** Has Shipped Report */
            has_shipped_report: boolean;
            /** Id */
            id: string;
            /**
             * Iterations
             * @description Of a full run.
             */
            iterations: number;
            /**
             * Metrics
             * @description The metrics the study compares, each with its unit in its name.
             */
            metrics: string[];
            /**
             * Parallel
             * @description Runs at once.
             */
            parallel: number;
            /** Published */
            published: components["schemas"]["PublishedFigurePublic"][];
            quick: components["schemas"]["QuickRunPublic"];
            /**
             * Quick Configurations
             * @description Those of the quick run.
             */
            quick_configurations: components["schemas"]["StudyConfigurationPublic"][];
            /**
             * Summary
             * @description What the study found, in a paragraph.
             */
            summary: string;
            /** Title */
            title: string;
            /** Url */
            url: string | null;
        };
        /** StudyReport */
        StudyReport: {
            /**
             * Axes
             * @description Every column of a configuration and its levels: `experiment` first if the study has experiments.
             */
            axes: {
                [key: string]: string[];
            };
            /** Campaigns */
            campaigns: components["schemas"]["ReportCampaign"][];
            /** Checks */
            checks: components["schemas"]["ReportCheck"][];
            /** Citation */
            citation: string;
            /** Configurations */
            configurations: components["schemas"]["ReportConfiguration"][];
            /**
             * Experiments
             * @description Experiment -> its title (absent from reports of the first format).
             */
            experiments: {
                [key: string]: string;
            } | null;
            /**
             * Generated At
             * @description ISO 8601, UTC.
             */
            generated_at: string;
            /** Git */
            git: string | null;
            /**
             * Host
             * @description The host and tool versions the runs ran with (a run's provenance).
             */
            host: {
                [key: string]: unknown;
            };
            /**
             * Metrics
             * @description Metric -> what it is and where it comes from (absent from reports of the first format).
             */
            metrics: {
                [key: string]: string;
            } | null;
            /**
             * Prefer
             * @description all: every study run's runs pooled; latest: each configuration's from the latest study run that measured it.
             * @default all
             * @enum {string}
             */
            prefer: "all" | "latest";
            /**
             * Provenance Differences
             * @description Runs made with another setup than their campaign's first run (absent from older reports).
             * @default []
             */
            provenance_differences: components["schemas"]["ProvenanceDifference"][];
            /**
             * Quick
             * @description Every run it covers was a quick one: a smoke test, not a result.
             */
            quick: boolean;
            /** Rows */
            rows: components["schemas"]["ReportRow"][];
            /** Satlab */
            satlab: string | null;
            /** Study */
            study: string;
            summary: components["schemas"]["ReportSummary"];
            /** Title */
            title: string;
        };
        /**
         * StudyRunCreate
         * @description A study run: the whole matrix, or the levels in `only`; `quick`: the recipe's smoke run.
         */
        StudyRunCreate: {
            /**
             * Iterations
             * @description Default: the study's.
             */
            iterations?: number | null;
            /**
             * Only
             * @description Axis -> the levels to run (default: all).
             * @default {}
             */
            only?: {
                [key: string]: string[];
            };
            /**
             * Parallel
             * @description Runs at once (default: the study's).
             */
            parallel?: number | null;
            /**
             * Quick
             * @description The configurations that finish fast, few iterations: a smoke test, not a result.
             * @default false
             */
            quick?: boolean;
        };
        /**
         * StudyRunsPublic
         * @description The campaigns that ran a study, oldest first.
         */
        StudyRunsPublic: {
            /** Count */
            count: number;
            /** Data */
            data: components["schemas"]["CampaignPublic"][];
        };
        /**
         * SummaryEvent
         * @description The run's last event: its result, once stored.
         */
        SummaryEvent: {
            /**
             * @description The files the run kept (null: the scenario keeps none; absent from older runs).
             * @default null
             */
            artifacts: components["schemas"]["RunArtifacts"] | null;
            /**
             * Campaign Id
             * @default null
             */
            campaign_id: string | null;
            /** Error */
            error: string | null;
            /**
             * @description Whether the host kept up with the run, and who measured (absent from runs before it was recorded; null for a run that never started).
             * @default null
             */
            fidelity: components["schemas"]["RunFidelity"] | null;
            /** Flows */
            flows: components["schemas"]["FlowResult"][];
            /** Iterations */
            iterations: components["schemas"]["IterationResult"][];
            /** Run Id */
            run_id: string;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "done" | "failed" | "cancelled";
            /**
             * @description Set when its time limit stopped the run (a censored time, not a broken path; absent from older runs).
             * @default null
             */
            timed_out: components["schemas"]["TimedOut"] | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "summary";
        };
        /**
         * TcpCongestionControls
         * @description Linux's TCP congestion controls on this host.
         */
        TcpCongestionControls: {
            /**
             * Available
             * @description The kernel's now.
             */
            available: string[];
            /**
             * Loadable
             * @description Loadable as modules.
             */
            loadable: string[];
            /** Missing */
            missing: string[];
        };
        /** TcpStack */
        TcpStack: {
            /**
             * Dsack
             * @default null
             */
            dsack: boolean | null;
            /**
             * Frto
             * @default null
             */
            frto: (0 | 1 | 2) | null;
            /**
             * Max Reordering
             * @default null
             */
            max_reordering: number | null;
            /**
             * Recovery
             * @default null
             */
            recovery: number | null;
            /**
             * Reordering
             * @default null
             */
            reordering: number | null;
            /**
             * Sack
             * @default null
             */
            sack: boolean | null;
        };
        /**
         * TimedOut
         * @description The iteration a run's time limit stopped: its flows had not all
         *     finished within 60 s + 100 x their time at the bottleneck rate.
         */
        TimedOut: {
            /** Flows */
            flows: components["schemas"]["FlowAtTimeLimit"][];
            /** Iteration */
            iteration: number;
            /** Limit S */
            limit_s: number;
        };
        /** Trace */
        Trace: {
            /**
             * File
             * Format: path
             */
            file: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "trace";
            /** Seed */
            seed?: number | null;
            /**
             * Trace Period Ms
             * @default 0
             */
            trace_period_ms?: number;
        };
        /** Trace */
        "Trace-Output": {
            /**
             * File
             * Format: path
             */
            file: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            model: "trace";
            /**
             * Seed
             * @default null
             */
            seed: number | null;
            /**
             * Trace Period Ms
             * @default 0
             */
            trace_period_ms: number;
        };
        /** TransportCapability */
        TransportCapability: {
            /** Available */
            available: boolean;
            /**
             * Colour
             * @description The transport's colour in every chart (CSS).
             */
            colour: string;
            /** Congestion Controls */
            congestion_controls: string[];
            /** Display Name */
            display_name: string;
            /**
             * Durations
             * @description It can run for duration_s, not only size_bytes.
             */
            durations: boolean;
            /**
             * Flow Control
             * @description It takes QUIC flow-control windows.
             */
            flow_control: boolean;
            /** Name */
            name: string;
            /**
             * Problem
             * @description Why the transport cannot run here, when it cannot.
             */
            problem: string | null;
            /**
             * Uploads
             * @description It can run direction: upload.
             */
            uploads: boolean;
            /**
             * Zero Rtt Modes
             * @description The zero_rtt values it can run.
             */
            zero_rtt_modes: string[];
        };
        /**
         * Tunnel
         * @description The FEC tunnel S(k,z): between terminal and gateway (span satellite), or
         *     between the client and the server's side (span end-to-end), so that a lossy
         *     LAN segment between client and terminal is protected too. Its receiver
         *     writes source packets at once and rebuilt ones as they decode (delivery
         *     immediate), or in order: packets after a gap held until it is rebuilt or
         *     given up, at most hold_ms (None: swf-tunnel's 200 ms).
         */
        Tunnel: {
            /**
             * Delivery
             * @default immediate
             * @enum {string}
             */
            delivery: "immediate" | "in-order";
            /**
             * Flush Ms
             * @default 10
             */
            flush_ms: number;
            /**
             * Hold Ms
             * @default null
             */
            hold_ms: number | null;
            /** K */
            k: number;
            /**
             * Protect
             * @default all
             */
            protect: string;
            /**
             * Span
             * @default satellite
             * @enum {string}
             */
            span: "satellite" | "end-to-end";
            /**
             * Symbol Bytes
             * @default null
             */
            symbol_bytes: number | null;
            /** Z */
            z: number;
        };
        /**
         * TunnelLimits
         * @description The FEC tunnel S(k,z) a scenario may ask for (satlab.scenario.Tunnel):
         *     one repair after every k source packets, over the last z.
         */
        TunnelLimits: {
            k: components["schemas"]["IntegerRange"];
            /**
             * K At Most Z
             * @description k must be at most z: a repair covers only the last z sources, so with k > z some sources would be in no repair's window.
             */
            k_at_most_z: boolean;
            symbol_bytes: components["schemas"]["IntegerRange"];
            z: components["schemas"]["IntegerRange"];
        };
        /**
         * TunnelSampleRow
         * @description One direction of the FEC tunnel: the tx counters of its sending
         *     endpoint, the rx counters of its receiving one (packets).
         */
        TunnelSampleRow: {
            /**
             * Direction
             * @enum {string}
             */
            direction: "forward" | "return";
            /** Iteration */
            iteration: number;
            /** Rx Decoding Delay Max Ms */
            rx_decoding_delay_max_ms: number | null;
            /** Rx Decoding Delay P99 Ms */
            rx_decoding_delay_p99_ms: number | null;
            /** Rx Lateness Max Ms */
            rx_lateness_max_ms: number | null;
            /** Rx Lateness P99 Ms */
            rx_lateness_p99_ms: number | null;
            /** Rx Lost */
            rx_lost: number | null;
            /** Rx Malformed */
            rx_malformed: number | null;
            /** Rx Plain */
            rx_plain: number | null;
            /** Rx Recovered */
            rx_recovered: number | null;
            /** Rx Rejected */
            rx_rejected: number | null;
            /** Rx Repairs */
            rx_repairs: number | null;
            /** Rx Sources */
            rx_sources: number | null;
            /** Rx Unauthenticated */
            rx_unauthenticated: number | null;
            /** Rx Unrecovered */
            rx_unrecovered: number | null;
            /** T S */
            t_s: number;
            /** Tx Flush Repairs */
            tx_flush_repairs: number | null;
            /** Tx Plain */
            tx_plain: number | null;
            /** Tx Repairs */
            tx_repairs: number | null;
            /** Tx Sources */
            tx_sources: number | null;
        };
        /** WorkerPublic */
        WorkerPublic: {
            /** @description How many runs of each kind it runs at once faithfully; null: not calibrated (one at a time). */
            calibration: components["schemas"]["CalibrationSummary"] | null;
            /** Host */
            host: string;
            /** Kernel */
            kernel: string;
            /** Last Refusal */
            last_refusal: string | null;
            /**
             * Max Runs
             * @description The most runs at once, whatever the calibration allows.
             */
            max_runs: number;
            /** Name */
            name: string;
            /**
             * Refused
             * @description Queue messages it refused without running anything.
             */
            refused: number;
            /**
             * Runs
             * @description What it runs now, and the run it took and waits to start.
             */
            runs: components["schemas"]["WorkerRunPublic"][];
            /** Satlab Version */
            satlab_version: string | null;
            /**
             * Seen At
             * @description Its last heartbeat, unix time, seconds.
             */
            seen_at: number;
            /**
             * Started At
             * @description Unix time, seconds; null for this server.
             */
            started_at: number | null;
            /**
             * Waiting Reason
             * @description Why the run it took does not start yet.
             */
            waiting_reason: string | null;
        };
        /** WorkerRunPublic */
        WorkerRunPublic: {
            /**
             * Attempt
             * @description 2: its first worker vanished mid-run.
             */
            attempt: number;
            /**
             * Kind
             * @description What it costs the host (its calibration counts each kind apart).
             * @enum {string}
             */
            kind: "kernel_tcp" | "tunnel" | "quic";
            /** Run Id */
            run_id: string;
            /**
             * Since
             * @description Unix time, seconds.
             */
            since: number | null;
            /**
             * State
             * @description waiting: taken, until the host has room for it.
             * @enum {string}
             */
            state: "running" | "waiting";
        };
        /** WorkersPublic */
        WorkersPublic: {
            /**
             * Broker
             * @description none: no broker is configured, runs run in this server's process (listed as one worker).
             * @enum {string}
             */
            broker: "none" | "connected";
            /** Workers */
            workers: components["schemas"]["WorkerPublic"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get_audit_api_audit_get: {
        parameters: {
            query?: {
                /** @description How many to list. */
                limit?: number;
                /** @description How many of the newest to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    sign_in_instructor_api_auth_instructor_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InstructorSignIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    sign_out_api_auth_logout_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    me_api_auth_me_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    sign_in_student_api_auth_student_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StudentSignIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Too Many Requests */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    list_campaigns_api_campaigns_get: {
        parameters: {
            query?: {
                /** @description How many to list. */
                limit?: number;
                /** @description How many of the newest to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignsPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    create_campaign_api_campaigns_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignDetail"];
                };
            };
            /** @description The campaign or one of its scenarios is invalid; each problem names its field. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_campaign_api_campaigns__campaign_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    delete_campaign_api_campaigns__campaign_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    cancel_campaign_api_campaigns__campaign_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    export_campaign_api_campaigns__campaign_id__csv_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV, with units in the column names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    export_campaign_results_api_campaigns__campaign_id__export_get: {
        parameters: {
            query?: {
                what?: "samples" | "summaries" | "pcap" | "qlog" | "all";
                format?: "csv" | "parquet";
            };
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One table (CSV or Parquet, units in the column names, provenance in a Parquet file's metadata), or a zip archive of several files with manifest.json. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": unknown;
                    "application/zip": unknown;
                    "text/csv": unknown;
                };
            };
            /** @description No such run or campaign, or nothing of the kind to export. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description The run is still queued or running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    resume_campaign_api_campaigns__campaign_id__resume_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                campaign_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_capabilities_api_capabilities_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Capabilities"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_lab_channel_stats_api_channels_stats_get: {
        parameters: {
            query: {
                duration_s?: number;
                packet_bytes?: number;
                rate_mbps?: number;
                lab: string;
                direction?: "forward" | "return" | "lan-up" | "lan-down";
                /** @description Which iteration's seed (from 0). */
                iteration?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelStats"];
                };
            };
            /** @description A field is refused; each problem names it. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    post_channel_stats_api_channels_stats_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelStatsRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelStats"];
                };
            };
            /** @description A field is refused; each problem names it. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_class_api_class_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClassPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    new_class_code_api_class_code_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClassCode"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    set_enabled_labs_api_class_labs_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnabledLabs"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnabledLabs"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_quotas_api_class_quotas_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quota"][];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    set_quotas_api_class_quotas_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClassQuotas"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quota"][];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    list_students_api_class_students_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudentRow"][];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    rename_student_api_class_students__student_id__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                student_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StudentRename"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudentRow"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    remove_student_api_class_students__student_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                student_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    new_student_key_api_class_students__student_id__key_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                student_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudentRow"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_labs_api_labs_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabsPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_lab_api_labs__name__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_limits_api_limits_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Limit"][];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_tunnel_limits_api_limits_tunnel_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TunnelLimits"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    list_runs_api_runs_get: {
        parameters: {
            query?: {
                status?: components["schemas"]["RunStatus"] | null;
                campaign_id?: string | null;
                /** @description How many to list. */
                limit?: number;
                /** @description How many of the newest to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunsPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    create_run_api_runs_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunPublic"];
                };
            };
            /** @description The scenario is invalid or cannot run on this host; each problem names its field. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_run_api_runs__run_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunPublic"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    delete_run_api_runs__run_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    cancel_run_api_runs__run_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    export_csv_api_runs__run_id__csv__kind__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
                kind: components["schemas"]["RunTable"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV, with units in the column names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    export_run_api_runs__run_id__export_get: {
        parameters: {
            query?: {
                what?: "samples" | "summaries" | "pcap" | "qlog" | "all";
                format?: "csv" | "parquet";
            };
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One table (CSV or Parquet, units in the column names, provenance in a Parquet file's metadata), or a zip archive of several files with manifest.json. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": unknown;
                    "application/zip": unknown;
                    "text/csv": unknown;
                };
            };
            /** @description No such run or campaign, or nothing of the kind to export. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description The run is still queued or running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_queue_place_api_runs__run_id__queue_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuePlace"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_samples_api_runs__run_id__samples_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SampleRows"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    share_run_api_runs__run_id__share_post: {
        parameters: {
            query?: {
                shared?: boolean;
            };
            header?: never;
            path: {
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    prune_api_storage_prune_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PruneRequest"] | null;
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pruned"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    list_all_api_studies_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudiesPublic"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_study_api_studies__study_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_report_api_studies__study_id__report_get: {
        parameters: {
            query?: {
                /** @description Only these study runs (default: every full run, else the quick ones). */
                campaign?: string[] | null;
                /** @description all: every study run's runs pooled; latest: each configuration's from the latest study run that measured it. */
                prefer?: "all" | "latest";
            };
            header?: never;
            path: {
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyReport"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    export_report_api_studies__study_id__report_csv_get: {
        parameters: {
            query?: {
                /** @description Only these study runs (default: every full run, else the quick ones). */
                campaign?: string[] | null;
                /** @description all: every study run's runs pooled; latest: each configuration's from the latest study run that measured it. */
                prefer?: "all" | "latest";
            };
            header?: never;
            path: {
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV, with units in the column names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": unknown;
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    list_study_runs_api_studies__study_id__runs_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                study_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StudyRunsPublic"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    start_study_run_api_studies__study_id__runs_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                study_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StudyRunCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description An unknown axis or level; each problem names its field. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
    get_workers_api_workers_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkersPublic"];
                };
            };
            /** @description Redis, the broker, cannot be used: why. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
            /** @description Refused: one problem per reason. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refused"];
                };
            };
        };
    };
}
