package dev.bigfleet.proxmox.pvesim;

/** Every endpoint of the simulated API subset. */
final class ApiRoutes {
    private final Router router = new Router();
    private final UploadApi upload;

    ApiRoutes(Cluster cluster) {
        this.upload = new UploadApi(cluster);
        new ClusterApi(cluster).register(router);
        new PciMappingApi(cluster).register(router);
        new VnetApi(cluster).register(router);
        new NodeApi(cluster).register(router);
        new StorageApi(cluster).register(router);
        new StorageContentApi(cluster).register(router);
        upload.register(router);
        new AccessApi(cluster).register(router);
        new VmApi(cluster).register(router);
        new AgentApi(cluster).register(router);
        new MigrateApi(cluster).register(router);
    }

    Router router() {
        return router;
    }

    UploadApi upload() {
        return upload;
    }
}
