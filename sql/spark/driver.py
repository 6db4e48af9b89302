# The Spark driver of resemble's reduce side. `spark-submit` runs it (client deploy mode: the driver
# runs where resemble runs) as `driver.py HOST:PORT TOKEN`; it opens one SparkSession, connects to
# the library at HOST:PORT, sends TOKEN and then runs the jobs the library sends, one JSON object per
# line, answering each with one JSON line. (spark-submit does not hand its standard input to Python,
# hence the socket.)
#
# A job holds SQL the library rendered from its templates for the spark dialect (exactly what
# `resemble plan --dialect spark` prints), so this file knows nothing of the pipeline:
#   {"id": 1,
#    "statements": ["DROP TABLE IF EXISTS r_kept", "CREATE TABLE r_kept AS ...", ...],
#    "queries": {"cap": "SELECT ... FROM r_counts"},          # first row of each, by column name
#    "outputs": [{"sql": "SELECT a, b, hits FROM r_candidates ORDER BY a, b", "path": "/x/candidates"}],
#    "drop": ["r_kept", ...]}                                    # dropped after the outputs, also on failure
# and answers {"id": 1, "ok": true, "rows": {"cap": {...}}, "outputs": [{"path": ..., "files": [...]}]}
# or {"id": 1, "ok": false, "error": "...", "sql": "the statement that failed"}.
#
# Outputs are written as Parquet to a hidden folder beside their path and renamed into place only
# when complete, so a job that fails part-way leaves nothing at the path. {"stop": true} (or the
# library closing the connection) stops the session.
import json
import socket
import sys
import time
import traceback

from pyspark.sql import SparkSession

PROTOCOL = 1


class Channel:
    def __init__(self, address, token):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.reader = self.sock.makefile("r", encoding="utf-8")
        self.send({"token": token})

    def send(self, obj):
        self.sock.sendall((json.dumps(obj) + "\n").encode("utf-8"))

    def lines(self):
        for line in self.reader:
            yield line


def hadoop_path(spark, path):
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    fs = p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    return jvm, fs, p


def write_output(spark, job_id, out):
    """Writes one query's result to a hidden folder beside `path`, then renames it into place."""
    path = out["path"].rstrip("/")
    jvm, fs, final = hadoop_path(spark, path)
    parent = final.getParent()
    temp = jvm.org.apache.hadoop.fs.Path(parent, "." + final.getName() + ".partial-" + str(job_id))
    if fs.exists(final):
        raise RuntimeError("output %s exists already; the library writes each output to a new path" % path)
    fs.delete(temp, True)
    try:
        spark.sql(out["sql"]).write.mode("error").parquet(temp.toString())
        if not fs.rename(temp, final):
            raise RuntimeError("cannot rename %s to %s" % (temp.toString(), path))
    except BaseException:
        fs.delete(temp, True)
        raise
    files = sorted(s.getPath().getName() for s in fs.listStatus(final) if s.getPath().getName().endswith(".parquet"))
    return {"path": path, "files": files}


def first_row(spark, sql):
    rows = spark.sql(sql).collect()
    if not rows:
        return {}
    return {k: (v if v is None or isinstance(v, (int, float)) else str(v)) for k, v in rows[0].asDict().items()}


def run_job(spark, job):
    current = None
    started = time.time()
    try:
        for sql in job.get("statements", []):
            current = sql
            spark.sql(sql)
        rows = {}
        for name, sql in job.get("queries", {}).items():
            current = sql
            rows[name] = first_row(spark, sql)
        outputs = []
        for out in job.get("outputs", []):
            current = out["sql"]
            outputs.append(write_output(spark, job["id"], out))
        current = None
        return {"id": job["id"], "ok": True, "rows": rows, "outputs": outputs, "seconds": time.time() - started}
    except Exception as e:  # the library reports it as E_ENGINE with the statement
        message = str(e).strip().split("\n")[0] or type(e).__name__
        return {"id": job["id"], "ok": False, "error": message, "sql": (current or "")[:400],
                "trace": traceback.format_exc()[-2000:]}
    finally:
        for table in job.get("drop", []):
            try:
                spark.sql("DROP TABLE IF EXISTS " + table)
            except Exception:
                pass


def main():
    channel = Channel(sys.argv[1], sys.argv[2])
    answer = channel.send
    spark = SparkSession.builder.appName("resemble").getOrCreate()
    sc = spark.sparkContext
    answer({"ready": True, "protocol": PROTOCOL, "spark": spark.version, "master": sc.master,
            "executors": sc.getConf().get("spark.executor.instances", None)})
    try:
        for line in channel.lines():
            line = line.strip()
            if not line:
                continue
            job = json.loads(line)
            if job.get("stop"):
                break
            if job.get("executors"):
                # executors registered with the driver (the driver itself aside)
                status = sc._jsc.sc().getExecutorMemoryStatus()
                answer({"id": job["id"], "ok": True, "rows": {"executors": {"n": status.size() - 1}}, "outputs": []})
                continue
            answer(run_job(spark, job))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
